#include "io/DecimalTime.h"

#include <QTest>

class tst_DecimalTime : public QObject
{
    Q_OBJECT
private slots:
    void conversion_data();
    void conversion();
};

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
