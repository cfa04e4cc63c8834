#include "io/DecimalTime.h"
#include "io/JsonLexing.h"

#include <QTest>

#include <charconv>
#include <random>

class tst_DecimalTime : public QObject
{
    Q_OBJECT
private slots:
    void conversion_data();
    void conversion();
    void fixedPointAgreesWithLexeme();
    void fixedPointTakesCommonShapes_data();
    void fixedPointTakesCommonShapes();
};

namespace {

// What the scanners did before the fused path: scanNumber, then the exact
// conversion of the lexeme (ms) or from_chars for an integer. The fused
// scanFixedPoint must agree wherever it answers, and leave `pos` alone
// where it does not.
QString disagreement(const std::string &text)
{
    const std::string_view s(text);
    size_t fixedPos = 0;
    std::string_view fixedLexeme;
    JsonLexing::FixedPoint number;
    const bool fixed = JsonLexing::scanFixedPoint(s, fixedPos, &fixedLexeme, &number);
    if (!fixed)
        return fixedPos == 0 ? QString() : QStringLiteral("moved pos on failure");
    size_t pos = 0;
    std::string_view lexeme;
    bool integral = false;
    if (!JsonLexing::scanNumber(s, pos, &lexeme, &integral))
        return QStringLiteral("accepted what scanNumber refuses");
    if (lexeme != fixedLexeme || pos != fixedPos || integral != number.integral)
        return QStringLiteral("lexeme or kind differs");
    if (integral) {
        qint64 value = 0;
        std::from_chars(lexeme.data(), lexeme.data() + lexeme.size(), value);
        const auto fused = qint64(number.digits);
        return (number.negative ? -fused : fused) == value ? QString() : QStringLiteral("integer differs");
    }
    qint64 expected = 0;
    const auto status = DecimalTime::toNanoseconds(lexeme, 1'000'000, &expected);
    qint64 ns = 0;
    if (!DecimalTime::scaleToNanoseconds(qint64(number.digits), number.fractionDigits, number.negative, 6, &ns))
        return QString(); // the caller then takes the lexeme's path
    if (status != DecimalTime::Status::Ok || ns != expected)
        return QStringLiteral("ns %1 vs %2").arg(ns).arg(expected);
    return {};
}

} // namespace

void tst_DecimalTime::fixedPointAgreesWithLexeme()
{
    // Every combination of edge pieces, then random strings of number
    // characters; each followed by nothing, a short and a long tail (the
    // eight-byte and the byte-by-byte readings).
    const std::vector<std::string> signs = {"", "-", "+", "--"};
    const std::vector<std::string> integers = {"",
                                               "0",
                                               "00",
                                               "01",
                                               "7",
                                               "10",
                                               "99999999",
                                               "100000000",
                                               "1700000000123",
                                               "123456789012345678",
                                               "1234567890123456789",
                                               "999999999999999999"};
    const std::vector<std::string> fractions
        = {"", ".", ".5", ".0000005", ".0000004", ".4999995", ".12345678", ".123456789", ".000000000000000001", ".0"};
    const std::vector<std::string> exponents = {"", "e3", "E-2", "e"};
    const std::vector<std::string> tails = {"", ",", "}", "x", ",\"queue_enter_ms\":1}", "0", ".5", "        "};
    int cases = 0;
    for (const auto &sign : signs)
        for (const auto &integer : integers)
            for (const auto &fraction : fractions)
                for (const auto &exponent : exponents)
                    for (const auto &tail : tails) {
                        const std::string text = sign + integer + fraction + exponent + tail;
                        const QString problem = disagreement(text);
                        QVERIFY2(problem.isEmpty(),
                                 qPrintable(QString::fromStdString(text) + QStringLiteral(": ") + problem));
                        ++cases;
                    }
    std::mt19937 rng(14);
    const std::string alphabet = "0123456789012345678901234567890123456789.-eE,}/:";
    for (int i = 0; i < 200'000; ++i) {
        std::string text(size_t(rng() % 28), ' ');
        for (auto &c : text)
            c = alphabet[rng() % alphabet.size()];
        const QString problem = disagreement(text);
        QVERIFY2(problem.isEmpty(), qPrintable(QString::fromStdString(text) + QStringLiteral(": ") + problem));
        ++cases;
    }
    QVERIFY(cases > 200'000);
}

void tst_DecimalTime::fixedPointTakesCommonShapes_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("taken");
    QTest::addColumn<qint64>("digits");
    QTest::addColumn<int>("fractionDigits");
    QTest::addColumn<qint64>("ns");
    QTest::newRow("epoch ms, long tail") << QByteArray("1700000000123.456,\"x\":1}") << true
                                         << Q_INT64_C(1700000000123456) << 3 << Q_INT64_C(1700000000123456000);
    QTest::newRow("epoch ms, line end") << QByteArray("1700000000123.456") << true << Q_INT64_C(1700000000123456) << 3
                                        << Q_INT64_C(1700000000123456000);
    QTest::newRow("eight digits then point")
        << QByteArray("12345678.9}") << true << Q_INT64_C(123456789) << 1 << Q_INT64_C(12345678900000);
    QTest::newRow("negative, sub-ns half up")
        << QByteArray("-0.0000005 ") << true << Q_INT64_C(5) << 7 << Q_INT64_C(-1);
    QTest::newRow("integer") << QByteArray("42,") << true << Q_INT64_C(42) << 0 << Q_INT64_C(42000000);
    QTest::newRow("18 digits") << QByteArray("123456789.123456789") << true << Q_INT64_C(123456789123456789) << 9
                               << Q_INT64_C(123456789123457);
    QTest::newRow("19 digits: lexeme path")
        << QByteArray("1234567890.123456789") << false << Q_INT64_C(0) << 0 << Q_INT64_C(0);
    QTest::newRow("exponent: lexeme path") << QByteArray("1.5e3") << false << Q_INT64_C(0) << 0 << Q_INT64_C(0);
    QTest::newRow("leading zero: refused") << QByteArray("012.5") << false << Q_INT64_C(0) << 0 << Q_INT64_C(0);
}

void tst_DecimalTime::fixedPointTakesCommonShapes()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, taken);
    QFETCH(qint64, digits);
    QFETCH(int, fractionDigits);
    QFETCH(qint64, ns);
    const std::string_view s(text.constData(), size_t(text.size()));
    size_t pos = 0;
    std::string_view lexeme;
    JsonLexing::FixedPoint number;
    QCOMPARE(JsonLexing::scanFixedPoint(s, pos, &lexeme, &number), taken);
    if (!taken) {
        QCOMPARE(pos, size_t(0));
        return;
    }
    QCOMPARE(qint64(number.digits), digits);
    QCOMPARE(number.fractionDigits, fractionDigits);
    qint64 result = 0;
    QVERIFY(DecimalTime::scaleToNanoseconds(qint64(number.digits), number.fractionDigits, number.negative, 6, &result));
    QCOMPARE(result, ns);
}

void tst_DecimalTime::conversion_data()
{
    QTest::addColumn<QByteArray>("lexeme");
    QTest::addColumn<qint64>("unit");
    QTest::addColumn<int>("status");
    QTest::addColumn<qint64>("ns");

    const qint64 ms = 1'000'000;
    const int ok = int(DecimalTime::Status::Ok);
    const int nan = int(DecimalTime::Status::NotANumber);
    const int range = int(DecimalTime::Status::OutOfRange);
    QTest::newRow("integer ms") << QByteArray("1024") << ms << ok << Q_INT64_C(1024000000);
    QTest::newRow("fraction ms") << QByteArray("1024.125") << ms << ok << Q_INT64_C(1024125000);
    QTest::newRow("epoch ms with µs") << QByteArray("1700000000123.456") << ms << ok << Q_INT64_C(1700000000123456000);
    QTest::newRow("sub-ns rounds down") << QByteArray("0.0000004") << ms << ok << Q_INT64_C(0);
    QTest::newRow("sub-ns rounds half up") << QByteArray("0.0000005") << ms << ok << Q_INT64_C(1);
    QTest::newRow("negative") << QByteArray("-2.5") << ms << ok << Q_INT64_C(-2500000);
    QTest::newRow("exponent") << QByteArray("1.5e3") << ms << ok << Q_INT64_C(1500000000);
    QTest::newRow("negative exponent") << QByteArray("15E-1") << ms << ok << Q_INT64_C(1500000);
    QTest::newRow("many digits, general path")
        << QByteArray("1700000000123.4567891234") << ms << ok << Q_INT64_C(1700000000123456789);
    QTest::newRow("seconds") << QByteArray("0.25") << Q_INT64_C(1000000000) << ok << Q_INT64_C(250000000);
    QTest::newRow("microseconds") << QByteArray("1.5") << Q_INT64_C(1000) << ok << Q_INT64_C(1500);
    QTest::newRow("zero") << QByteArray("0.000") << ms << ok << Q_INT64_C(0);
    QTest::newRow("too large") << QByteArray("1e20") << ms << range << Q_INT64_C(0);
    QTest::newRow("huge exponent") << QByteArray("1e999") << ms << range << Q_INT64_C(0);
    QTest::newRow("not a number") << QByteArray("abc") << ms << nan << Q_INT64_C(0);
    QTest::newRow("two points") << QByteArray("1.2.3") << ms << nan << Q_INT64_C(0);
    QTest::newRow("dangling exponent") << QByteArray("1e") << ms << nan << Q_INT64_C(0);
}

void tst_DecimalTime::conversion()
{
    QFETCH(QByteArray, lexeme);
    QFETCH(qint64, unit);
    QFETCH(int, status);
    QFETCH(qint64, ns);
    qint64 result = 0;
    const auto actual
        = DecimalTime::toNanoseconds(std::string_view(lexeme.constData(), size_t(lexeme.size())), unit, &result);
    QCOMPARE(int(actual), status);
    if (actual == DecimalTime::Status::Ok)
        QCOMPARE(result, ns);
}

QTEST_GUILESS_MAIN(tst_DecimalTime)
#include "tst_decimaltime.moc"
