// ExactSum and MetricMean: means that are exact and the same in any order of
// the rows, so a database's parallel sums (model/clickhouse) give the file's
// figure to the last bit.

#include "analysis/requests/MetricMean.h"
#include "analysis/stats/ExactSum.h"

#include "SeededRandom.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

namespace {

double sumOf(std::vector<double> values)
{
    ExactSum sum;
    sum.add(values);
    return sum.value();
}

ExactSum fromLimbs(const std::vector<double> &values)
{
    ExactSum::Limbs sums{};
    for (const double value : values) {
        const auto limbs = ExactSum::limbs(value);
        for (int k = 0; k < ExactSum::kLimbs; ++k)
            sums[size_t(k)] += limbs[size_t(k)];
    }
    return ExactSum::fromLimbSums(sums);
}

} // namespace

class TestExactSum : public QObject
{
    Q_OBJECT

private slots:
    void cancellationIsExact()
    {
        // Added left to right in doubles, 2^47 + 1e-6 loses the small term.
        const std::vector<double> values = {std::ldexp(1.0, 47), 1e-6, -std::ldexp(1.0, 47)};
        QCOMPARE((values[0] + values[1]) + values[2], 0.0);
        QCOMPARE(sumOf(values), 1e-6);
        // The doubles nearest 0.1, 0.2 and 0.3 do not cancel: 2^-55 is left.
        QCOMPARE(sumOf({0.1, 0.2, -0.3}), std::ldexp(1.0, -55));
    }

    void theSumIsTheRoundedExactTotal()
    {
        // The exact total of the binary values, rounded once to nearest.
        QCOMPARE(sumOf({0.1, 0.2}), 0.30000000000000004);
        QCOMPARE(sumOf({0.5, 0.25, -0.125}), 0.625);
        QCOMPARE(sumOf({}), 0.0);
        QCOMPARE(sumOf({-3.5, -0.5}), -4.0);
        // Ties to even: 2^-7 is half an ulp of 2^46.
        QCOMPARE(sumOf({std::ldexp(1.0, 46), std::ldexp(1.0, -7)}), std::ldexp(1.0, 46));
    }

    void anyOrderGivesTheSameBits()
    {
        SeededRandom random(16);
        std::mt19937_64 order(16);
        std::vector<double> values(20'000);
        for (double &value : values)
            value = random.lognormal(5.0, 2.0) * (random.uniform() < 0.15 ? -1.0 : 1.0);
        const double first = sumOf(values);
        for (int round = 0; round < 5; ++round) {
            std::shuffle(values.begin(), values.end(), order);
            QCOMPARE(sumOf(values), first);
        }
        std::sort(values.begin(), values.end());
        QCOMPARE(sumOf(values), first);
        // A naive sum of the same values drifts with the order.
        double naive = 0.0;
        for (const double value : values)
            naive += value;
        QVERIFY(std::abs(naive - first) <= std::abs(first) * 1e-12 + 1e-9);
    }

    void limbSumsGiveTheSameTotal()
    {
        // What a database adds: the limbs of every value, as integers.
        SeededRandom random(17);
        std::vector<double> values;
        for (int i = 0; i < 10'000; ++i) {
            const auto ns = qint64(random.uniform(-5e9, 9e10));
            const auto tokens = 1 + int(random.uniform() * 4000.0);
            values.push_back(double(ns) / 1e6 / double(tokens));
        }
        values.push_back(std::ldexp(1.0, 47) + 0.5);
        values.push_back(-std::ldexp(1.0, -60));
        values.push_back(0.0);
        values.push_back(-0.0);
        ExactSum direct;
        direct.add(values);
        QVERIFY(!direct.overflowed());
        QCOMPARE(fromLimbs(values).value(), direct.value());
        // Each value is exactly its limbs.
        for (const double value : {1e-6, 123.456789, -0.000333, 1.0 / 3.0, std::ldexp(1.0, 47) * 1.5}) {
            const auto limbs = ExactSum::limbs(value);
            double rebuilt = 0.0;
            for (int k = ExactSum::kLimbs - 1; k >= 0; --k)
                rebuilt += std::ldexp(double(limbs[size_t(k)]), 16 - 32 * k);
            QCOMPARE(rebuilt, value);
        }
    }

    void outOfRangeIsNaNNotWrong()
    {
        for (const double bad : {std::ldexp(1.0, 48), std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::quiet_NaN(), std::ldexp(1.0, -113)}) {
            ExactSum sum;
            sum.add(1.0);
            sum.add(bad);
            QVERIFY(sum.overflowed());
            QVERIFY(std::isnan(sum.value()));
        }
        QVERIFY(std::isnan(ExactSum().mean(0)));
        QCOMPARE(ExactSum::fromLimbSums({0, 0, 0, 0, 0}).mean(3), 0.0);
    }

    void wholeNsAreRecovered()
    {
        // A double of ns / 1e6 names one whole ns below 2^52.
        std::mt19937_64 random(18);
        for (const qint64 limit : {qint64(1'000), qint64(1) << 40, qint64(1) << 52}) {
            for (int i = 0; i < 20'000; ++i) {
                const qint64 value = qint64(random() % quint64(2 * limit + 1)) - limit;
                QCOMPARE(MetricMean::nsOf(double(value) / 1e6), value);
            }
        }
    }

    void metricMeans()
    {
        // Whole-ns metrics: Σ ns / n / 1e6; ITL: the exact sum of the doubles.
        const std::vector<double> ttft = {0.000001, 1234.567891, 0.1, 99.999999};
        const qint64 sumNs = 1 + 1'234'567'891 + 100'000 + 99'999'999;
        QCOMPARE(MetricMean::ofValues(ttft, Metric::Ttft), double(sumNs) / 4.0 / 1e6);
        QCOMPARE(MetricMean::ofValues(ttft, phaseMetric(Phase::Queue)), double(sumNs) / 4.0 / 1e6);
        const std::vector<double> itl = {0.1, 0.2, 1.0 / 3.0};
        ExactSum exact;
        exact.add(itl);
        QCOMPARE(MetricMean::ofValues(itl, Metric::Itl), exact.value() / 3.0);
        QVERIFY(std::isnan(MetricMean::ofValues({}, Metric::E2e)));
    }
};

QTEST_GUILESS_MAIN(TestExactSum)
#include "tst_exactsum.moc"
