#include "SeededRandom.h"
#include "analysis/compare/PercentileDifference.h"
#include "analysis/stats/Percentile.h"

#include <QTest>

#include <algorithm>
#include <vector>

// The difference of two percentiles with its 95% interval. The coverage of
// the documented method is shown by simulation: seeded, so every run sees
// the same draws and the same rates (printed with -v2).
class tst_PercentileDifference : public QObject
{
    Q_OBJECT
private slots:
    void normalQuantile();
    void formulaOnKnownSamples();
    void verdicts_data();
    void verdicts();
    void tooFewRequests();
    void coverage_data();
    void coverage();
};

namespace {

enum class Shape { Lognormal, Exponential, Uniform };

double draw(SeededRandom &random, Shape shape)
{
    switch (shape) {
    case Shape::Lognormal:
        return random.lognormal(0.0, 1.0);
    case Shape::Exponential:
        return random.exponential(1.0);
    case Shape::Uniform:
        break;
    }
    return random.uniform();
}

// The true q-quantile of each shape, for the coverage of a known shift.
double trueQuantile(Shape shape, double q)
{
    switch (shape) {
    case Shape::Lognormal: {
        // Standard normal quantile by bisection on erf.
        double lo = -10.0;
        double hi = 10.0;
        for (int i = 0; i < 200; ++i) {
            const double mid = (lo + hi) / 2.0;
            (0.5 * std::erfc(-mid / std::sqrt(2.0)) < q ? lo : hi) = mid;
        }
        return std::exp((lo + hi) / 2.0);
    }
    case Shape::Exponential:
        return -std::log1p(-q);
    case Shape::Uniform:
        break;
    }
    return q;
}

std::vector<double> sample(SeededRandom &random, Shape shape, int n, double scale, double shift)
{
    std::vector<double> values(static_cast<size_t>(n));
    for (double &value : values)
        value = draw(random, shape) * scale + shift;
    std::sort(values.begin(), values.end());
    return values;
}

} // namespace

void tst_PercentileDifference::normalQuantile()
{
    QVERIFY(std::abs(normalQuantileTwoSided(0.95) - 1.959963984540054) < 1e-12);
    QVERIFY(std::abs(normalQuantileTwoSided(0.99) - 2.5758293035489004) < 1e-12);
    QVERIFY(std::isnan(normalQuantileTwoSided(1.0)));
}

void tst_PercentileDifference::formulaOnKnownSamples()
{
    // Baseline 1..100 and candidate 51..150: the medians are 50.5 and 100.5.
    // QuantileInterval gives ranks 40 and 61 (coverage 0.9647997997822951)
    // on both sides, so each standard error is (61 - 40) / (2 z(0.9648)).
    std::vector<double> baseline(100);
    std::vector<double> candidate(100);
    for (int i = 0; i < 100; ++i) {
        baseline[size_t(i)] = i + 1;
        candidate[size_t(i)] = i + 51;
    }
    const auto difference = PercentileDifference::of(baseline, candidate, 0.5);
    QCOMPARE(difference.baseline.value, 50.5);
    QCOMPARE(difference.candidate.value, 100.5);
    QCOMPARE(difference.baseline.lower, 40.0);
    QCOMPARE(difference.baseline.upper, 61.0);
    QCOMPARE(difference.differenceMs, 50.0);
    QCOMPARE(difference.differencePercent, 100.0 * 50.0 / 50.5);
    const double se = 21.0 / (2.0 * normalQuantileTwoSided(0.9647997997822951));
    const double halfWidth = 1.959963984540054 * std::sqrt(2.0) * se;
    QVERIFY(std::abs(difference.detectableMs - halfWidth) < 1e-9);
    QVERIFY(std::abs(halfWidth - 13.8192401) < 1e-6); // z(0.9648) = 2.10605: a figure to check by hand
    QCOMPARE(difference.lowerMs, 50.0 - difference.detectableMs);
    QCOMPARE(difference.upperMs, 50.0 + difference.detectableMs);
    QCOMPARE(difference.verdict, PercentileDifference::Verdict::Regressed);
}

void tst_PercentileDifference::verdicts_data()
{
    QTest::addColumn<double>("shift");
    QTest::addColumn<int>("verdict");
    QTest::newRow("same sample") << 0.0 << int(PercentileDifference::Verdict::NoDetectableChange);
    QTest::newRow("2 ms faster: inside the noise") << -2.0 << int(PercentileDifference::Verdict::NoDetectableChange);
    QTest::newRow("30 ms faster") << -30.0 << int(PercentileDifference::Verdict::Improved);
    QTest::newRow("30 ms slower") << 30.0 << int(PercentileDifference::Verdict::Regressed);
}

void tst_PercentileDifference::verdicts()
{
    QFETCH(double, shift);
    QFETCH(int, verdict);
    std::vector<double> baseline(100);
    for (int i = 0; i < 100; ++i)
        baseline[size_t(i)] = i + 1;
    std::vector<double> candidate = baseline;
    for (double &value : candidate)
        value += shift;
    const auto difference = PercentileDifference::of(baseline, candidate, 0.5);
    QCOMPARE(int(difference.verdict), verdict);
    QCOMPARE(difference.differenceMs, shift);
    QCOMPARE(PercentileDifference::verdictKey(PercentileDifference::Verdict(verdict)).isEmpty(), false);
}

void tst_PercentileDifference::tooFewRequests()
{
    // p95 needs 72 requests per side for its order-statistic interval.
    std::vector<double> small(71, 1.0);
    std::vector<double> enough(72, 1.0);
    const auto difference = PercentileDifference::of(small, enough, 0.95);
    QCOMPARE(difference.verdict, PercentileDifference::Verdict::TooFew);
    QVERIFY(difference.baseline.tooFew());
    QVERIFY(!difference.candidate.tooFew());
    QCOMPARE(difference.differenceMs, 0.0);  // the point estimate is still there
    QVERIFY(std::isnan(difference.lowerMs)); // but no interval and no verdict
    QCOMPARE(PercentileDifference::verdictLabel(difference.verdict), QStringLiteral("too few requests"));
    const auto empty = PercentileDifference::of({}, enough, 0.95);
    QCOMPARE(empty.verdict, PercentileDifference::Verdict::TooFew);
    QVERIFY(std::isnan(empty.differenceMs));
}

void tst_PercentileDifference::coverage_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<double>("q");
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("scale"); // candidate = baseline distribution * scale + shift
    QTest::addColumn<double>("shift");
    // Pairs drawn from one distribution must cover 0, shifted pairs the true
    // shift, at about the stated 95%. 1,000 pairs per row: the rate's own
    // standard error is about 0.7 points.
    QTest::newRow("lognormal p95 n=500, same") << int(Shape::Lognormal) << 0.95 << 500 << 1.0 << 0.0;
    QTest::newRow("lognormal p95 n=2000, same") << int(Shape::Lognormal) << 0.95 << 2000 << 1.0 << 0.0;
    QTest::newRow("lognormal p95 n=1000, 20% faster") << int(Shape::Lognormal) << 0.95 << 1000 << 0.8 << 0.0;
    QTest::newRow("exponential p95 n=1000, +0.3") << int(Shape::Exponential) << 0.95 << 1000 << 1.0 << 0.3;
    QTest::newRow("exponential p50 n=200, same") << int(Shape::Exponential) << 0.5 << 200 << 1.0 << 0.0;
    QTest::newRow("uniform p90 n=500, -0.1") << int(Shape::Uniform) << 0.9 << 500 << 1.0 << -0.1;
    QTest::newRow("lognormal p99 n=3000, same") << int(Shape::Lognormal) << 0.99 << 3000 << 1.0 << 0.0;
}

void tst_PercentileDifference::coverage()
{
    QFETCH(int, shape);
    QFETCH(double, q);
    QFETCH(int, n);
    QFETCH(double, scale);
    QFETCH(double, shift);
    const double truth = trueQuantile(Shape(shape), q) * (scale - 1.0) + shift;
    SeededRandom random(20261201);
    constexpr int kPairs = 1000;
    int covered = 0;
    int falseVerdicts = 0;
    for (int pair = 0; pair < kPairs; ++pair) {
        const auto baseline = sample(random, Shape(shape), n, 1.0, 0.0);
        const auto candidate = sample(random, Shape(shape), n, scale, shift);
        const auto difference = PercentileDifference::of(baseline, candidate, q);
        QVERIFY(difference.verdict != PercentileDifference::Verdict::TooFew);
        if (difference.lowerMs <= truth && truth <= difference.upperMs)
            ++covered;
        if (truth == 0.0 && difference.verdict != PercentileDifference::Verdict::NoDetectableChange)
            ++falseVerdicts;
    }
    const double rate = double(covered) / kPairs;
    qInfo("coverage %.3f over %d pairs (true difference %.4f)", rate, kPairs, truth);
    QVERIFY2(rate >= 0.93 && rate <= 0.985, qPrintable(QStringLiteral("coverage %1").arg(rate)));
    if (truth == 0.0)
        QCOMPARE(falseVerdicts, kPairs - covered); // no detectable change exactly when 0 is covered
}

QTEST_GUILESS_MAIN(tst_PercentileDifference)
#include "tst_percentiledifference.moc"
