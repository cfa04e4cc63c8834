#include "analysis/stats/Distribution.h"
#include "analysis/stats/Histogram.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QTest>

#include <cmath>

class tst_Distribution : public QObject
{
    Q_OBJECT
private slots:
    void histogram_data();
    void histogram();
    void logBinsSkipNonPositive();
    void autoBinCount_data();
    void autoBinCount();
    void seedBurstPercentiles();
    void cdfSteps_data();
    void cdfSteps();
    void emptyIsNan();
    void valuesOfRows();
};

void tst_Distribution::histogram_data()
{
    QTest::addColumn<QList<double>>("sorted");
    QTest::addColumn<int>("bins");
    QTest::addColumn<bool>("log");
    QTest::addColumn<QList<double>>("edges");
    QTest::addColumn<QList<qint64>>("counts");
    QTest::newRow("seed burst TTFT, 4 linear bins")
        << QList<double>{202, 206, 210, 216, 243, 288, 368, 458, 588, 718} << 4 << false
        << QList<double>{202, 331, 460, 589, 718} << QList<qint64>{6, 2, 1, 1};
    QTest::newRow("last bin is closed on the right")
        << QList<double>{0, 1, 2} << 2 << false << QList<double>{0, 1, 2} << QList<qint64>{1, 2};
    QTest::newRow("identical values: one bin")
        << QList<double>{5, 5, 5} << 10 << false << QList<double>{5, 5} << QList<qint64>{3};
    QTest::newRow("log bins, decades") << QList<double>{1, 10, 100, 1000} << 3 << true
                                       << QList<double>{1, 10, 100, 1000} << QList<qint64>{1, 1, 2};
    QTest::newRow("empty") << QList<double>{} << 5 << false << QList<double>{} << QList<qint64>{};
}

void tst_Distribution::histogram()
{
    QFETCH(QList<double>, sorted);
    QFETCH(int, bins);
    QFETCH(bool, log);
    QFETCH(QList<double>, edges);
    QFETCH(QList<qint64>, counts);
    const std::vector<double> values(sorted.begin(), sorted.end());
    const Histogram histogram = HistogramBinning::ofSorted(values, bins, log);
    QCOMPARE(QList<double>(histogram.edges.begin(), histogram.edges.end()), edges);
    QCOMPARE(QList<qint64>(histogram.counts.begin(), histogram.counts.end()), counts);
}

void tst_Distribution::logBinsSkipNonPositive()
{
    const std::vector<double> values = {-1, 0, 5};
    const Histogram histogram = HistogramBinning::ofSorted(values, 4, true);
    QCOMPARE(histogram.outOfRange, 2);
    QCOMPARE(histogram.counts, (std::vector<qint64>{1}));
}

void tst_Distribution::autoBinCount_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<int>("bins");
    QTest::newRow("tiny sample gets 10") << qint64(10) << 10;
    QTest::newRow("400 gets 20") << qint64(400) << 20;
    QTest::newRow("a million is capped at 80") << qint64(1'000'000) << 80;
}

void tst_Distribution::autoBinCount()
{
    QFETCH(qint64, n);
    QFETCH(int, bins);
    QCOMPARE(HistogramBinning::autoBinCount(n), bins);
}

void tst_Distribution::seedBurstPercentiles()
{
    const LoadResult result = TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/burst.jsonl"), {});
    const RowSet all = RowSet::all(result.store->requests.rowCount());
    const auto values = DistributionAnalysis::metricValues(result.store->requests, all, Metric::Ttft, Boundary::Client);
    const Distribution d = DistributionAnalysis::describe(values, Metric::Ttft, Boundary::Client);
    QCOMPARE(d.n, 10);
    QCOMPARE(d.p50, 265.5);
    QCOMPARE(d.p90, 601.0);
    QCOMPARE(d.p95, 659.5);
    QCOMPARE(d.p99, 706.3);
    QCOMPARE(d.min, 202.0);
    QCOMPARE(d.max, 718.0);
    QCOMPARE(d.histogram.binCount(), 10);
    QCOMPARE(d.cdf.size(), size_t(10));
    QCOMPARE(d.cdf.front().x, 202.0);
    QCOMPARE(d.cdf.front().share, 0.1);
    QCOMPARE(d.cdf.back().share, 1.0);
    // ITL and E2E are observed at the client whatever boundary is chosen.
    QCOMPARE(DistributionAnalysis::describe(values, Metric::E2e, Boundary::Engine).boundary, Boundary::Client);
    QCOMPARE(DistributionAnalysis::describe(values, Metric::Ttft, Boundary::Engine).boundary, Boundary::Engine);
}

void tst_Distribution::cdfSteps_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<int>("maxPoints");
    QTest::addColumn<QList<double>>("xs");
    QTest::addColumn<QList<double>>("shares");
    QTest::newRow("ties share one step") << QList<double>{1, 1, 1, 2} << 100 << QList<double>{1, 2}
                                         << QList<double>{0.75, 1.0};
    QTest::newRow("thinned to every 5th plus the last")
        << QList<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10} << 2 << QList<double>{1, 6, 10} << QList<double>{0.1, 0.6, 1.0};
    QTest::newRow("NaN is not an observation")
        << QList<double>{std::nan(""), 4, 2} << 100 << QList<double>{2, 4} << QList<double>{0.5, 1.0};
}

void tst_Distribution::cdfSteps()
{
    QFETCH(QList<double>, values);
    QFETCH(int, maxPoints);
    QFETCH(QList<double>, xs);
    QFETCH(QList<double>, shares);
    DistributionOptions options;
    options.maxCdfPoints = maxPoints;
    const std::vector<double> input(values.begin(), values.end());
    const Distribution d = DistributionAnalysis::describe(input, Metric::Ttft, Boundary::Client, options);
    QList<double> gotX;
    QList<double> gotShare;
    for (const CdfPoint &point : d.cdf) {
        gotX.append(point.x);
        gotShare.append(point.share);
    }
    QCOMPARE(gotX, xs);
    QCOMPARE(gotShare, shares);
}

void tst_Distribution::emptyIsNan()
{
    const Distribution d = DistributionAnalysis::describe(std::vector<double>{}, Metric::Itl, Boundary::Client);
    QCOMPARE(d.n, 0);
    QVERIFY(std::isnan(d.p95));
    QVERIFY(d.cdf.empty());
    QVERIFY(d.histogram.counts.empty());
}

void tst_Distribution::valuesOfRows()
{
    const LoadResult result
        = TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/three-requests.jsonl"), {});
    const auto values = DistributionAnalysis::metricValues(result.store->requests, RowSet::fromRows({2, 0}),
                                                           Metric::Itl, Boundary::Client);
    QCOMPARE(values, (std::vector<double>{100.0, 300.0}));
}

QTEST_GUILESS_MAIN(tst_Distribution)
#include "tst_distribution.moc"
