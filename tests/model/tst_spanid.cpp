#include "io/IsoTime.h"
#include "io/SpanId.h"

#include <QTest>

// Ids and times are where formats disagree most: every form must end up in
// the one canonical value, exactly.
class tst_SpanId : public QObject
{
    Q_OBJECT
private slots:
    void otlpIds_data();
    void otlpIds();
    void decimalIds_data();
    void decimalIds();
    void anyText();
    void isoTimes_data();
    void isoTimes();
};

void tst_SpanId::otlpIds_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("digits");
    QTest::addColumn<QString>("expected"); // empty: invalid
    QTest::addColumn<QString>("error");

    QTest::newRow("lower-case hex") << QStringLiteral("eee19b7ec3c1b174") << 16 << QStringLiteral("eee19b7ec3c1b174")
                                    << QString();
    QTest::newRow("upper-case hex") << QStringLiteral("EEE19B7EC3C1B174") << 16 << QStringLiteral("eee19b7ec3c1b174")
                                    << QString();
    QTest::newRow("base64 span id") << QStringLiteral("ERITFBUWFxg=") << 16 << QStringLiteral("1112131415161718")
                                    << QString();
    QTest::newRow("base64 without padding")
        << QStringLiteral("ERITFBUWFxg") << 16 << QStringLiteral("1112131415161718") << QString();
    QTest::newRow("base64 trace id") << QStringLiteral("AQIDBAUGBwgJCgsMDQ4PEA==") << 32
                                     << QStringLiteral("0102030405060708090a0b0c0d0e0f10") << QString();
    QTest::newRow("url-safe base64") << QStringLiteral("-_-_-_-_-_-_-_-_-_-_-w==") << 32
                                     << QStringLiteral("fbffbffbffbffbffbffbffbffbffbffb") << QString();
    QTest::newRow("15 hex digits padded")
        << QStringLiteral("a68c6983a6d81a2") << 16 << QStringLiteral("0a68c6983a6d81a2") << QString();
    QTest::newRow("not an id") << QStringLiteral("xyz") << 32 << QString()
                               << QStringLiteral("'xyz' is neither 32 hex digits nor base64 of 16 bytes");
    QTest::newRow("too long")
        << QStringLiteral("00000000000000000000000000000000ff") << 32 << QString()
        << QStringLiteral("'00000000000000000000000000000000ff' is neither 32 hex digits nor base64 of 16 bytes");
}

void tst_SpanId::otlpIds()
{
    QFETCH(QString, text);
    QFETCH(int, digits);
    QFETCH(QString, expected);
    QFETCH(QString, error);
    const std::string input = text.toStdString();
    std::string out;
    QString message;
    const auto status = SpanId::fromOtlp(input, digits, &out, &message);
    if (expected.isEmpty()) {
        QCOMPARE(status, SpanId::Status::Invalid);
        QCOMPARE(message, error);
    } else {
        QCOMPARE(status, SpanId::Status::Ok);
        QCOMPARE(QString::fromStdString(out), expected);
    }
}

void tst_SpanId::decimalIds_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("digits");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("error");
    QTest::newRow("any-agent trace id, beyond 2^64") << QStringLiteral("100927429609276267646756448943279827607") << 32
                                                     << QStringLiteral("4bedea77bb33b9c5f280371eae21ea97") << QString();
    QTest::newRow("any-agent span id, beyond 2^63")
        << QStringLiteral("12324293800750531911") << 16 << QStringLiteral("ab08afea3548c547") << QString();
    QTest::newRow("zero") << QStringLiteral("0") << 16 << QStringLiteral("0000000000000000") << QString();
    QTest::newRow("2^128 - 1") << QStringLiteral("340282366920938463463374607431768211455") << 32
                               << QStringLiteral("ffffffffffffffffffffffffffffffff") << QString();
    QTest::newRow("2^128") << QStringLiteral("340282366920938463463374607431768211456") << 32 << QString()
                           << QStringLiteral("'340282366920938463463374607431768211456' does not fit in 128 bits");
    QTest::newRow("2^64 as a span id") << QStringLiteral("18446744073709551616") << 16 << QString()
                                       << QStringLiteral("'18446744073709551616' does not fit in 64 bits");
    QTest::newRow("negative") << QStringLiteral("-1") << 16 << QString()
                              << QStringLiteral("'-1' is not a non-negative decimal integer");
}

void tst_SpanId::decimalIds()
{
    QFETCH(QString, text);
    QFETCH(int, digits);
    QFETCH(QString, expected);
    QFETCH(QString, error);
    std::string out;
    QString message;
    const auto status = SpanId::fromDecimal(text.toStdString(), digits, &out, &message);
    if (expected.isEmpty()) {
        QCOMPARE(status, SpanId::Status::Invalid);
        QCOMPARE(message, error);
    } else {
        QCOMPARE(status, SpanId::Status::Ok);
        QCOMPARE(QString::fromStdString(out), expected);
    }
}

void tst_SpanId::anyText()
{
    std::string out;
    SpanId::fromAnyText("span-A", 16, &out);
    QCOMPARE(out, std::string("span-A")); // hand-written fixture ids stay as they are
    SpanId::fromAnyText("df84e36b9e2ee3815d07f0867a5be1f", 32, &out);
    QCOMPARE(out, std::string("0df84e36b9e2ee3815d07f0867a5be1f"));
    QVERIFY(SpanId::isAllZero("0000000000000000"));
    QVERIFY(!SpanId::isAllZero("0000000000000001"));
}

void tst_SpanId::isoTimes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("ns");
    QTest::newRow("Langfuse, ms and Z") << QStringLiteral("2025-12-17T09:37:37.258Z") << true
                                        << 1'765'964'257'258'000'000LL;
    QTest::newRow("epoch") << QStringLiteral("1970-01-01T00:00:00Z") << true << 0LL;
    QTest::newRow("ns precision") << QStringLiteral("2025-01-15T10:00:00.000000001Z") << true
                                  << 1'736'935'200'000'000'001LL;
    QTest::newRow("digits past ns are dropped")
        << QStringLiteral("2025-01-15T10:00:00.0000000019Z") << true << 1'736'935'200'000'000'001LL;
    QTest::newRow("negative offset") << QStringLiteral("2025-09-16T08:43:13-04:00") << true
                                     << 1'758'026'593'000'000'000LL;
    QTest::newRow("offset without colon")
        << QStringLiteral("2025-09-16T14:13:13+0130") << true << 1'758'026'593'000'000'000LL;
    QTest::newRow("leap day") << QStringLiteral("2024-02-29T00:00:00Z") << true << 1'709'164'800'000'000'000LL;
    QTest::newRow("no zone is UTC") << QStringLiteral("2024-02-29 00:00:00") << true << 1'709'164'800'000'000'000LL;
    QTest::newRow("30 February") << QStringLiteral("2025-02-30T00:00:00Z") << false << 0LL;
    QTest::newRow("hour 24") << QStringLiteral("2025-02-10T24:00:00Z") << false << 0LL;
    QTest::newRow("trailing text") << QStringLiteral("2025-02-10T10:00:00Zx") << false << 0LL;
    QTest::newRow("empty fraction") << QStringLiteral("2025-02-10T10:00:00.Z") << false << 0LL;
    QTest::newRow("a word") << QStringLiteral("yesterday") << false << 0LL;
}

void tst_SpanId::isoTimes()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(qint64, ns);
    qint64 out = -1;
    QCOMPARE(IsoTime::toNanoseconds(text.toStdString(), &out), valid);
    if (valid)
        QCOMPARE(out, ns);
}

QTEST_GUILESS_MAIN(tst_SpanId)
#include "tst_spanid.moc"
