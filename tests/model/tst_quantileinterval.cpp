#include "analysis/stats/QuantileInterval.h"

#include <QTest>

// Expected ranks and coverages were computed independently from the
// definition: exact binomial sums in rational arithmetic for n <= 1000, and
// 30-digit mpmath sums for the large samples.
class tst_QuantileInterval : public QObject
{
    Q_OBJECT
private slots:
    void ranks_data();
    void ranks();
    void minimumSampleSize_data();
    void minimumSampleSize();
    void degenerateInput();
};

void tst_QuantileInterval::ranks_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("q");
    QTest::addColumn<bool>("formed");
    QTest::addColumn<qint64>("lower");
    QTest::addColumn<qint64>("upper");
    QTest::addColumn<double>("coverage");

    QTest::newRow("median, n=5: too few") << qint64(5) << 0.5 << false << qint64(0) << qint64(0) << 0.0;
    QTest::newRow("median, n=6: min and max") << qint64(6) << 0.5 << true << qint64(1) << qint64(6) << 0.96875;
    QTest::newRow("median, n=10") << qint64(10) << 0.5 << true << qint64(2) << qint64(9) << 0.978515625;
    QTest::newRow("median, n=20") << qint64(20) << 0.5 << true << qint64(6) << qint64(15) << 0.9586105346679688;
    QTest::newRow("median, n=100") << qint64(100) << 0.5 << true << qint64(40) << qint64(61) << 0.9647997997822951;
    QTest::newRow("p90, n=35: too few") << qint64(35) << 0.9 << false << qint64(0) << qint64(0) << 0.0;
    QTest::newRow("p90, n=36") << qint64(36) << 0.9 << true << qint64(29) << qint64(36) << 0.9539621052026521;
    QTest::newRow("p95, n=71: too few") << qint64(71) << 0.95 << false << qint64(0) << qint64(0) << 0.0;
    QTest::newRow("p95, n=72") << qint64(72) << 0.95 << true << qint64(64) << qint64(72) << 0.9654900479083739;
    QTest::newRow("p95, n=200") << qint64(200) << 0.95 << true << qint64(184) << qint64(197) << 0.9671521638567258;
    QTest::newRow("p99, n=367: too few") << qint64(367) << 0.99 << false << qint64(0) << qint64(0) << 0.0;
    QTest::newRow("p99, n=368") << qint64(368) << 0.99 << true << qint64(360) << qint64(368) << 0.9624158204108587;
    QTest::newRow("p99, n=1000") << qint64(1000) << 0.99 << true << qint64(983) << qint64(997) << 0.9760947634979771;
    QTest::newRow("p99, n=50000") << qint64(50000) << 0.99 << true << qint64(49456) << qint64(49544)
                                  << 0.9520650904357014;
    QTest::newRow("median, n=1M") << qint64(1000000) << 0.5 << true << qint64(499020) << qint64(500981)
                                  << 0.9501210313476319;
    QTest::newRow("p95, n=1M") << qint64(1000000) << 0.95 << true << qint64(949572) << qint64(950428)
                               << 0.9504468120487178;
}

void tst_QuantileInterval::ranks()
{
    QFETCH(qint64, n);
    QFETCH(double, q);
    QFETCH(bool, formed);
    QFETCH(qint64, lower);
    QFETCH(qint64, upper);
    QFETCH(double, coverage);
    const auto interval = QuantileInterval::forSample(n, q);
    QCOMPARE(interval.formed, formed);
    QCOMPARE(interval.lowerRank, lower);
    QCOMPARE(interval.upperRank, upper);
    if (formed) {
        QVERIFY2(std::abs(interval.coverage - coverage) < 1e-9,
                 qPrintable(QString::number(interval.coverage, 'g', 17)));
        QVERIFY(interval.coverage >= 0.95);
    }
}

void tst_QuantileInterval::minimumSampleSize_data()
{
    QTest::addColumn<double>("q");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("p50") << 0.5 << qint64(6);
    QTest::newRow("p90") << 0.9 << qint64(36);
    QTest::newRow("p95") << 0.95 << qint64(72);
    QTest::newRow("p99") << 0.99 << qint64(368);
    QTest::newRow("p10 mirrors p90") << 0.1 << qint64(36);
}

void tst_QuantileInterval::minimumSampleSize()
{
    QFETCH(double, q);
    QFETCH(qint64, expected);
    QCOMPARE(QuantileInterval::minimumSampleSize(q), expected);
    QVERIFY(!QuantileInterval::forSample(expected - 1, q).formed);
    QVERIFY(QuantileInterval::forSample(expected, q).formed);
}

void tst_QuantileInterval::degenerateInput()
{
    QVERIFY(!QuantileInterval::forSample(0, 0.5).formed);
    QVERIFY(!QuantileInterval::forSample(100, 0.0).formed);
    QVERIFY(!QuantileInterval::forSample(100, 1.0).formed);
    QVERIFY(!QuantileInterval::forSample(-3, 0.5).formed);
}

QTEST_GUILESS_MAIN(tst_QuantileInterval)
#include "tst_quantileinterval.moc"
