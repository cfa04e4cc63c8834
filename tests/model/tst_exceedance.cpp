#include "TraceBuilder.h"

#include "analysis/classes/ClassFilter.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/requests/PhaseAdvice.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/stats/TwoSampleDistance.h"

#include <QTest>

#include <algorithm>

#include <random>

namespace {

const QString kRegion = QStringLiteral("region");
const QString kPriority = QStringLiteral("priority");
const QString kCached = QStringLiteral("cached_prefix");
const QString kTier = QStringLiteral("tenant_tier");

// 100 requests; rows 10, 30, 50, 70, 90 are the slow ones. They differ from
// the rest only in region (all ap-south, against 20% of the rest) and in
// queue time (500..540 ms against 10..104 ms). Priority, cache status, tier,
// token shape and every other phase have the same distribution in both.
std::shared_ptr<TraceStore> regionAndQueueTrace()
{
    const std::map<int, double> slowQueue = {{10, 520.0}, {30, 540.0}, {50, 500.0}, {70, 530.0}, {90, 510.0}};
    TraceBuilder builder;
    int restIndex = 0;
    int slowIndex = 0;
    for (int i = 0; i < 100; ++i) {
        TestRequest request;
        request.sendMs = 100.0 * i;
        request.promptTokens = 512;
        request.outputTokens = 100;
        const auto slow = slowQueue.find(i);
        // Within every block of five, the same mix of priority, cache and tier.
        const int slot = slow != slowQueue.end() ? slowIndex++ : restIndex++;
        request.with(kPriority, slot % 5 < 3 ? QStringLiteral("interactive") : QStringLiteral("batch"));
        request.with(kCached, slot % 5 < 2 ? QStringLiteral("true") : QStringLiteral("false"));
        request.withNumber(kTier, slot % 5 < 2 ? 1.0 : (slot % 5 < 4 ? 2.0 : 3.0));
        if (slow != slowQueue.end()) {
            request.phase(Phase::Queue, slow->second).with(kRegion, QStringLiteral("ap-south"));
        } else {
            request.phase(Phase::Queue, 10.0 + slot);
            request.with(kRegion, slot % 5 == 0 ? QStringLiteral("ap-south") : QStringLiteral("eu-west"));
        }
        builder.add(request);
    }
    return builder.store();
}

ExceedanceAnalysis analyse(const std::shared_ptr<TraceStore> &store, const ExceedanceSpec &spec = {},
                           const RequestSlice *slice = nullptr)
{
    ColumnCache cache(store);
    return ExceedanceAnalysis::compute(cache, slice ? *slice : RequestSlice::all(store->requests.rowCount()), spec);
}

const MemberFeatureRow &rowFor(const MemberComparison &comparison, const QString &key)
{
    for (const auto &row : comparison.rows) {
        if (row.feature.key == key)
            return row;
    }
    qFatal("no feature");
}

} // namespace

class tst_Exceedance : public QObject
{
    Q_OBJECT
private slots:
    void thresholdAndMembers();
    void orderByArrival();
    void regionRanksFirstAndQueueIsNamed();
    void shareDetailsOfTheSeparatingAttribute();
    void memberComparedWithTheRest();
    void exceedanceWithinASlice();
    void restInRowOrder();
    void phaseDifferencesSumToTheTotal_data();
    void phaseDifferencesSumToTheTotal();
    void phaseAttributionByHand();
    void unobservedTimeStaysResidual();
    void kolmogorovSmirnov_data();
    void kolmogorovSmirnov();
    void percentileRank_data();
    void percentileRank();
    void binnedDistributions();
};

void tst_Exceedance::thresholdAndMembers()
{
    const auto analysis = analyse(regionAndQueueTrace());
    const auto &set = analysis.set;
    // TTFT = 5 ms + queue: rest 15..109, slow 505..545; p95 rank 94.05 lies
    // between 109 and 505.
    QCOMPARE(set.threshold, 109.0 + 0.05 * (505.0 - 109.0));
    QCOMPARE(set.sliceRequests, qint64(100));
    QCOMPARE(set.observedRequests, qint64(100));
    QCOMPARE(set.size(), qsizetype(5));
    QCOMPARE(set.rest.size(), size_t(95));
    QCOMPARE(set.members, std::vector<qint32>({30, 70, 10, 90, 50})); // slowest first
    QCOMPARE(set.positionOf(90), qsizetype(3));
    QCOMPARE(set.positionOf(11), qsizetype(-1));
    QCOMPARE(set.boundary, Boundary::Client);
}

void tst_Exceedance::orderByArrival()
{
    ExceedanceSpec spec;
    spec.order = ExceedanceOrder::Arrival;
    const auto store = regionAndQueueTrace();
    auto analysis = analyse(store, spec);
    QCOMPARE(analysis.set.members, std::vector<qint32>({10, 30, 50, 70, 90}));
    ColumnCache cache(store);
    analysis.set.reorder(store->requests, *cache.metric(Metric::Ttft, Boundary::Client),
                         ExceedanceOrder::MetricDescending);
    QCOMPARE(analysis.set.members, std::vector<qint32>({30, 70, 10, 90, 50}));
    QCOMPARE(analysis.set.spec.order, ExceedanceOrder::MetricDescending);
}

void tst_Exceedance::regionRanksFirstAndQueueIsNamed()
{
    const auto analysis = analyse(regionAndQueueTrace());
    const auto &attributes = analysis.comparison.attributes;
    QVERIFY(!attributes.empty());
    QCOMPARE(attributes.front().feature.key, kRegion);
    QCOMPARE(attributes.front().separation, 0.8);
    QCOMPARE(attributes.front().method(), QStringLiteral("max share difference"));
    // Everything else separates nothing.
    QStringList others;
    for (size_t i = 1; i < attributes.size(); ++i) {
        others << attributes[i].feature.key;
        QCOMPARE(attributes[i].separation, 0.0);
    }
    QCOMPARE(
        others,
        QStringList({QStringLiteral("prompt_tokens"), QStringLiteral("output_tokens"), kPriority, kCached, kTier}));

    // Phases: queue splits the two groups completely, the rest not at all.
    const auto &phases = analysis.comparison.phases;
    QCOMPARE(phases.size(), size_t(kPhaseCount));
    QCOMPARE(phases.front().feature.key, QStringLiteral("queue"));
    QCOMPARE(phases.front().separation, 1.0);
    QCOMPARE(phases.front().method(), QStringLiteral("KS D"));
    QCOMPARE(phases[1].separation, 0.0);

    const auto &attribution = analysis.attribution;
    QCOMPARE(attribution.total, Metric::Ttft);
    QCOMPARE(attribution.setN, qint64(5));
    QCOMPARE(attribution.restN, qint64(95));
    QCOMPARE(attribution.setMeanMs, 525.0);
    QCOMPARE(attribution.restMeanMs, 62.0);
    QCOMPARE(attribution.differenceMs, 463.0);
    QCOMPARE(attribution.phases.size(), size_t(6)); // TTFT at the client: network_in .. network_to_first
    for (const auto &phase : attribution.phases)
        QCOMPARE(phase.differenceMs, phase.phase == Phase::Queue ? 463.0 : 0.0);
    QCOMPARE(attribution.residualDifferenceMs, 0.0);
    QVERIFY(attribution.suspected.has_value());
    QCOMPARE(*attribution.suspected, Phase::Queue);
    QCOMPARE(attribution.nextTest, nextTestFor(Phase::Queue));
    QVERIFY(!attribution.residualCarriesMost);
}

void tst_Exceedance::shareDetailsOfTheSeparatingAttribute()
{
    const auto analysis = analyse(regionAndQueueTrace());
    const auto &region = analysis.comparison.attributes.front();
    QCOMPARE(region.separatingValue, QStringLiteral("ap-south"));
    QCOMPARE(region.shares.size(), size_t(2));
    QCOMPARE(region.shares[0].value, QStringLiteral("ap-south"));
    QCOMPARE(region.shares[0].setCount, qint64(5));
    QCOMPARE(region.shares[0].restCount, qint64(19));
    QCOMPARE(region.shares[0].setShare, 1.0);
    QCOMPARE(region.shares[0].restShare, 0.2);
    QCOMPARE(region.shares[1].value, QStringLiteral("eu-west"));
    QCOMPARE(region.shares[1].restCount, qint64(76));

    const auto &queue = analysis.comparison.phases.front();
    QCOMPARE(queue.setN, qint64(5));
    QCOMPARE(queue.restN, qint64(95));
    QCOMPARE(queue.setMedian, 520.0);
    QCOMPARE(queue.restMedian, 57.0);
    QCOMPARE(queue.ksAt, 104.0); // every rest value is at or below it, no set value
    // Both distributions over the same 20 bins of 10..540 ms.
    QCOMPARE(queue.distributions.edges.size(), size_t(21));
    QCOMPARE(queue.distributions.edges.front(), 10.0);
    QCOMPARE(queue.distributions.edges.back(), 540.0);
    QCOMPARE(queue.distributions.setShares.back(), 0.6); // 520, 530 and 540 in [513.5, 540]
    QCOMPARE(queue.distributions.restShares.back(), 0.0);
    double restTotal = 0.0;
    for (const double share : queue.distributions.restShares)
        restTotal += share;
    QCOMPARE(restTotal, 1.0);
}

void tst_Exceedance::memberComparedWithTheRest()
{
    const auto store = regionAndQueueTrace();
    const auto analysis = analyse(store);
    const MemberComparison first = analysis.member(store->requests, 0);
    QCOMPARE(first.row, 30);
    QCOMPARE(first.position, qsizetype(0));
    QCOMPARE(first.requestId, QStringLiteral("req-31"));

    const auto &queue = rowFor(first, QStringLiteral("queue"));
    QCOMPARE(queue.value, 540.0);
    QCOMPARE(queue.text, QStringLiteral("540.000"));
    QCOMPARE(queue.restMedian, 57.0);
    QCOMPARE(queue.percentileRank, 100.0);
    QCOMPARE(queue.restN, qint64(95));

    const auto &ttft = rowFor(first, QStringLiteral("ttft"));
    QCOMPARE(ttft.value, 545.0);
    QCOMPARE(ttft.restMedian, 62.0);

    const auto &prompt = rowFor(first, QStringLiteral("prompt_tokens"));
    QCOMPARE(prompt.value, 512.0);
    QCOMPARE(prompt.restMedian, 512.0);
    QCOMPARE(prompt.percentileRank, 50.0); // equal to every request of the rest: mid-rank

    const auto &gateway = rowFor(first, QStringLiteral("gateway"));
    QCOMPARE(gateway.value, 1.0);
    QCOMPARE(gateway.percentileRank, 50.0);

    const auto &region = rowFor(first, kRegion);
    QCOMPARE(region.text, QStringLiteral("ap-south"));
    QCOMPARE(region.restShareSameValue, 0.2);
    QVERIFY(std::isnan(region.percentileRank));

    const auto &tier = rowFor(first, kTier);
    QCOMPARE(tier.value, 1.0); // second slow request: slot 1
    QCOMPARE(tier.restMedian, 2.0);
    QCOMPARE(tier.percentileRank, 100.0 * (38.0 / 2.0) / 95.0);

    // Out of range: an empty comparison, not a crash.
    QCOMPARE(analysis.member(store->requests, 5).row, -1);
}

void tst_Exceedance::exceedanceWithinASlice()
{
    const auto store = regionAndQueueTrace();
    ClassFilter filter;
    filter.add({kRegion, QStringLiteral("ap-south")});
    const RequestSlice slice = filter.apply(store->requests);
    QCOMPARE(slice.size(), qsizetype(24));
    ExceedanceSpec spec;
    spec.q = 0.5;
    const auto analysis = analyse(store, spec, &slice);
    // ap-south TTFTs: 19 of the rest (15, 20, ..., 105) and the 5 slow ones;
    // the median of 24 values sits between the 12th and 13th: 70 and 75.
    QCOMPARE(analysis.set.threshold, 72.5);
    QCOMPARE(analysis.set.size(), qsizetype(12));
    QCOMPARE(analysis.set.rest.size(), size_t(12));
    for (const qint32 row : analysis.set.members)
        QVERIFY(slice.contains(row));
    // The rest in row order (callers merge and search it by row), and with
    // the members exactly the slice.
    QVERIFY(std::is_sorted(analysis.set.rest.begin(), analysis.set.rest.end()));
    QVERIFY(std::adjacent_find(analysis.set.rest.begin(), analysis.set.rest.end()) == analysis.set.rest.end());
    std::vector<qint32> both = analysis.set.rest;
    both.insert(both.end(), analysis.set.members.begin(), analysis.set.members.end());
    std::sort(both.begin(), both.end());
    std::vector<qint32> inSlice;
    for (qint32 row = 0; row < qint32(store->requests.rowCount()); ++row) {
        if (slice.contains(row))
            inSlice.push_back(row);
    }
    QCOMPARE(both, inSlice);
    // Inside one region, region no longer separates.
    for (const auto &separation : analysis.comparison.attributes) {
        if (separation.feature.key == kRegion)
            QCOMPARE(separation.separation, 0.0);
    }
}

void tst_Exceedance::restInRowOrder()
{
    // Queue times fall as rows rise, and row 7 has no TTFT: value order is
    // not row order, and an unobserved row is in neither group.
    TraceBuilder builder;
    for (int i = 0; i < 20; ++i) {
        TestRequest request;
        request.sendMs = 100.0 * i;
        request.phase(Phase::Queue, 300.0 - 10.0 * i);
        if (i == 7)
            request.missingStamp = int(Stamp::FirstTokenClient);
        builder.add(request);
    }
    const auto store = builder.store();
    ExceedanceSpec spec;
    spec.q = 0.5;
    const auto analysis = analyse(store, spec);
    QCOMPARE(analysis.set.observedRequests, qint64(19));
    // The slow half are the first rows, slowest (row 0) first.
    QCOMPARE(analysis.set.members, std::vector<qint32>({0, 1, 2, 3, 4, 5, 6, 8, 9}));
    QCOMPARE(analysis.set.rest, std::vector<qint32>({10, 11, 12, 13, 14, 15, 16, 17, 18, 19}));
}

void tst_Exceedance::phaseDifferencesSumToTheTotal_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<int>("boundary");
    QTest::addColumn<int>("total"); // the request total the phases are attributed on
    QTest::newRow("TTFT, client") << int(Metric::Ttft) << int(Boundary::Client) << int(Metric::Ttft);
    QTest::newRow("TTFT, server") << int(Metric::Ttft) << int(Boundary::Server) << int(Metric::Ttft);
    QTest::newRow("TTFT, engine") << int(Metric::Ttft) << int(Boundary::Engine) << int(Metric::Ttft);
    QTest::newRow("E2E") << int(Metric::E2e) << int(Boundary::Client) << int(Metric::E2e);
    QTest::newRow("ITL is attributed on E2E") << int(Metric::Itl) << int(Boundary::Client) << int(Metric::E2e);
    QTest::newRow("queue phase on TTFT") << int(phaseMetric(Phase::Queue)) << int(Boundary::Client)
                                         << int(Metric::Ttft);
    QTest::newRow("stream phase on E2E") << int(phaseMetric(Phase::Stream)) << int(Boundary::Client)
                                         << int(Metric::E2e);
}

void tst_Exceedance::phaseDifferencesSumToTheTotal()
{
    QFETCH(int, metric);
    QFETCH(int, boundary);
    QFETCH(int, total);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> phase(0.1, 400.0);
    TraceBuilder builder;
    for (int i = 0; i < 2000; ++i) {
        TestRequest request;
        request.sendMs = i * 3.0;
        for (auto &ms : request.phasesMs)
            ms = std::round(phase(rng) * 1000.0) / 1000.0;
        // Some requests lack a stamp: the gateway's (two phases unobserved)
        // or the prefill end (prefill and first decode unobserved).
        if (i % 7 == 0)
            request.missingStamp = int(Stamp::GatewayArrival);
        if (i % 11 == 0)
            request.missingStamp = int(Stamp::PrefillEnd);
        builder.add(request);
    }
    ExceedanceSpec spec;
    spec.metric = Metric(metric);
    spec.boundary = Boundary(boundary);
    const auto analysis = analyse(builder.store(), spec);
    const auto &attribution = analysis.attribution;
    QCOMPARE(attribution.total, Metric(total)); // written out, not taken from PhaseAttribution::totalFor
    QVERIFY(attribution.setN > 50);
    QVERIFY(std::abs(attribution.differenceMs) > 1.0);
    QVERIFY2(std::abs(attribution.sumOfContributions() - attribution.differenceMs) < 1e-9,
             qPrintable(QString::number(attribution.sumOfContributions() - attribution.differenceMs, 'g', 17)));
    // The residual is real here (missing stamps), and stays separate.
    if (Boundary(boundary) == Boundary::Client || attribution.total == Metric::E2e)
        QVERIFY(std::abs(attribution.residualSetMeanMs) > 1.0);
}

void tst_Exceedance::phaseAttributionByHand()
{
    // Set {a, b}, rest {c, d}; E2E phases in ms.
    TraceBuilder builder;
    TestRequest a;
    a.phasesMs = {10, 5, 300, 40, 10, 10, 1000};
    TestRequest b;
    b.phasesMs = {20, 5, 100, 60, 10, 10, 1400};
    TestRequest c;
    c.phasesMs = {10, 5, 20, 40, 10, 10, 900};
    TestRequest d;
    d.phasesMs = {10, 5, 30, 40, 10, 10, 1100};
    builder.add(a).add(b).add(c).add(d);
    const auto store = builder.store();
    const std::vector<qint32> set = {0, 1};
    const std::vector<qint32> rest = {2, 3};
    const auto attribution = PhaseAttribution::compute(store->requests, set, rest, Metric::E2e, Boundary::Client);
    // E2E: set (1375 + 1605) / 2 = 1490, rest (995 + 1205) / 2 = 1100.
    QCOMPARE(attribution.setMeanMs, 1490.0);
    QCOMPARE(attribution.restMeanMs, 1100.0);
    QCOMPARE(attribution.differenceMs, 390.0);
    const std::array<double, kPhaseCount> expected = {5.0, 0.0, 175.0, 10.0, 0.0, 0.0, 200.0};
    QCOMPARE(attribution.phases.size(), size_t(kPhaseCount));
    for (size_t i = 0; i < kPhaseCount; ++i)
        QCOMPARE(attribution.phases[i].differenceMs, expected[i]);
    // Stream carries most of the E2E excess (200 of 390 ms).
    QCOMPARE(*attribution.suspected, Phase::Stream);
    QCOMPARE(attribution.sumOfContributions(), 390.0);
    QVERIFY(PhaseAttribution::percentileNote().contains(QStringLiteral("percentiles do not")));
}

void tst_Exceedance::unobservedTimeStaysResidual()
{
    // Both set requests lack the gateway stamp: their network and gateway
    // time is unobserved, and the excess there is named as residual.
    TraceBuilder builder;
    TestRequest slow;
    slow.phasesMs = {300, 300, 1, 1, 1, 1, 10};
    slow.missingStamp = int(Stamp::GatewayArrival);
    TestRequest fast;
    fast.phasesMs = {1, 1, 1, 1, 1, 1, 10};
    builder.add(slow).add(slow).add(fast).add(fast);
    const auto store = builder.store();
    const std::vector<qint32> set = {0, 1};
    const std::vector<qint32> rest = {2, 3};
    const auto attribution = PhaseAttribution::compute(store->requests, set, rest, Metric::Ttft, Boundary::Client);
    QCOMPARE(attribution.differenceMs, 598.0);
    QCOMPARE(attribution.residualSetMeanMs, 600.0);
    QCOMPARE(attribution.residualRestMeanMs, 0.0);
    QCOMPARE(attribution.phases[0].setObserved, qint64(0));
    QCOMPARE(attribution.phases[0].differenceMs, -1.0);
    QVERIFY(!attribution.suspected);
    QVERIFY(attribution.residualCarriesMost);
    QCOMPARE(attribution.sumOfContributions(), 598.0);
}

void tst_Exceedance::kolmogorovSmirnov_data()
{
    QTest::addColumn<QList<double>>("a");
    QTest::addColumn<QList<double>>("b");
    QTest::addColumn<double>("d");
    QTest::addColumn<double>("at");
    QTest::newRow("identical") << QList<double>{1, 2, 3} << QList<double>{1, 2, 3} << 0.0 << qQNaN();
    QTest::newRow("disjoint") << QList<double>{1, 2} << QList<double>{5, 6, 7} << 1.0 << 2.0;
    QTest::newRow("half shifted") << QList<double>{1, 2, 3, 4} << QList<double>{3, 4, 5, 6} << 0.5 << 2.0;
    QTest::newRow("ties do not open a gap") << QList<double>{5, 5, 5} << QList<double>{5, 5} << 0.0 << qQNaN();
    QTest::newRow("unequal sizes") << QList<double>{1, 10} << QList<double>{2, 3, 4, 5} << 0.5 << 1.0;
}

void tst_Exceedance::kolmogorovSmirnov()
{
    QFETCH(QList<double>, a);
    QFETCH(QList<double>, b);
    QFETCH(double, d);
    QFETCH(double, at);
    const std::vector<double> x(a.begin(), a.end());
    const std::vector<double> y(b.begin(), b.end());
    const auto ks = KolmogorovSmirnov::of(x, y);
    QCOMPARE(ks.d, d);
    if (std::isnan(at))
        QVERIFY(std::isnan(ks.at));
    else
        QCOMPARE(ks.at, at);
    QCOMPARE(KolmogorovSmirnov::of(y, x).d, d);
}

void tst_Exceedance::percentileRank_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("rank");
    QTest::newRow("below all") << 5.0 << 0.0;
    QTest::newRow("ties the minimum") << 10.0 << 12.5;
    QTest::newRow("between") << 25.0 << 50.0;
    QTest::newRow("ties a middle value") << 30.0 << 62.5;
    QTest::newRow("above all") << 50.0 << 100.0;
}

void tst_Exceedance::percentileRank()
{
    QFETCH(double, value);
    QFETCH(double, rank);
    const std::vector<double> rest = {10, 20, 30, 40};
    QCOMPARE(MemberComparison::percentileRank(rest, value), rank);
}

void tst_Exceedance::binnedDistributions()
{
    const std::vector<double> set = {0, 10};
    const std::vector<double> rest = {5, 5, 5, 10};
    const auto bins = BinnedDistributions::of(set, rest, 2);
    QCOMPARE(bins.edges, std::vector<double>({0, 5, 10}));
    QCOMPARE(bins.setShares, std::vector<double>({0.5, 0.5}));
    QCOMPARE(bins.restShares, std::vector<double>({0.0, 1.0}));
    const auto single = BinnedDistributions::of(std::vector<double>{3, 3}, std::vector<double>{3});
    QCOMPARE(single.edges, std::vector<double>({3, 3}));
    QCOMPARE(single.setShares, std::vector<double>({1.0}));
}

QTEST_GUILESS_MAIN(tst_Exceedance)
#include "tst_exceedance.moc"
