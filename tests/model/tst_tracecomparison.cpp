#include "ComparisonPopulation.h"
#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/ComparisonSplit.h"
#include "analysis/compare/TraceComparison.h"
#include "report/ComparisonJson.h"
#include "report/ComparisonText.h"

#include <nlohmann/json.hpp>

#include <QTest>

// Before/after comparisons on constructed pairs whose only difference is
// known: one class's queue shrank, the seed changed, the workload changed.
class tst_TraceComparison : public QObject
{
    Q_OBJECT
private slots:
    void oneClassQueueShrank();
    void identicalProcessesDifferentSeeds();
    void workloadChangeIsNamed();
    void phaseShiftSplitsExactly();
    void missesAgainstSloAndBaseline();
    void predictionBesideObservation();
    void percentileChangeReusesSamples();
    void splitOneTrace();
    void cannotCompare_data();
    void cannotCompare();
    void guardrailRegressionStopsTheRule();
    void numericClassesShareTheBaselineBands();
};

namespace {

TraceComparison compare(const std::shared_ptr<const TraceStore> &base, const std::shared_ptr<const TraceStore> &cand,
                        const ComparisonSpec &spec)
{
    const auto samples = ComparisonSamples::prepare(ComparisonSide::whole(base, QStringLiteral("baseline")),
                                                    ComparisonSide::whole(cand, QStringLiteral("candidate")), spec);
    return TraceComparison::evaluate(*samples, spec);
}

const ComparisonCell *cellOf(const TraceComparison &comparison, const QString &label)
{
    for (const auto &cell : comparison.cells) {
        if (cell.label() == label)
            return &cell;
    }
    return nullptr;
}

} // namespace

void tst_TraceComparison::oneClassQueueShrank()
{
    // eu queues three times longer than the others carry the baseline's
    // tail; the candidate fixed eu's queue and nothing else.
    PopulationSpec base;
    base.seed = 11;
    base.requests = 1800;
    base.queueScaledIn = QStringLiteral("eu");
    base.queueFactor = 3.0;
    PopulationSpec cand = base;
    cand.seed = 12;
    cand.queueFactor = 1.0;
    ComparisonSpec spec;
    spec.by = {QStringLiteral("region")};
    const TraceComparison comparison = compare(makePopulation(base), makePopulation(cand), spec);
    QVERIFY2(comparison.ok(), qPrintable(comparison.error));
    QCOMPARE(comparison.cells.size(), size_t(3));

    const ComparisonCell *eu = cellOf(comparison, QStringLiteral("eu"));
    QVERIFY(eu);
    QCOMPARE(eu->baselineRequests, 600);
    QCOMPARE(eu->candidateRequests, 600);
    QCOMPARE(eu->difference.verdict, PercentileDifference::Verdict::Improved);
    QVERIFY(eu->difference.upperMs < 0.0); // the interval excludes 0
    for (const QString &other : {QStringLiteral("us"), QStringLiteral("ap")}) {
        const ComparisonCell *cell = cellOf(comparison, other);
        QVERIFY(cell);
        QCOMPARE(cell->difference.verdict, PercentileDifference::Verdict::NoDetectableChange);
        QVERIFY(cell->difference.lowerMs <= 0.0 && 0.0 <= cell->difference.upperMs);
    }

    // The mean TTFT change lies in the queue, split exactly in whole ns.
    const PhaseShift &shift = comparison.phaseShift;
    QCOMPARE(shift.total, Metric::Ttft);
    QCOMPARE(shift.baselineN, 1800);
    QVERIFY(shift.movedMost.has_value());
    QCOMPARE(*shift.movedMost, Phase::Queue);
    qint64 sum = shift.residualChangeNs;
    for (const auto &row : shift.phases)
        sum += row.changeNs;
    QCOMPARE(sum, shift.totalChangeNs);
    QCOMPARE(shift.residualChangeNs, 0); // every stamp observed
    QVERIFY(shift.row(Phase::Queue)->movedDown());
    QVERIFY(!shift.row(Phase::Prefill)->movedDown());

    // The stop rule: the baseline's tail is queueing, the queue moved, the
    // overall target improved and no guardrail regressed.
    const ComparisonStopRule &rule = comparison.stopRule;
    QCOMPARE(comparison.overall.difference.verdict, PercentileDifference::Verdict::Improved);
    QVERIFY(rule.suspect.has_value());
    QCOMPARE(*rule.suspect, Phase::Queue);
    QCOMPARE(rule.phase, ComparisonStopRule::Check::Passed);
    QCOMPARE(rule.guardrailsCheck, ComparisonStopRule::Check::Passed);
    QCOMPARE(rule.outcome, ComparisonStopRule::Outcome::Worked);
    QCOMPARE(rule.reasons.size(), 6);
    QVERIFY(rule.reasons.front().startsWith(QStringLiteral("target p95 TTFT (client)")));
    QVERIFY(rule.reasons.front().endsWith(QStringLiteral(": improved")));

    const QString text = ComparisonText::report(comparison);
    QVERIFY(text.contains(QStringLiteral("Stop rule: THE CHANGE WORKED")));
    QVERIFY(text.contains(QStringLiteral("Moved most: queue")));
    const auto json = ComparisonJson::report(comparison);
    QVERIFY(json["stop_rule"]["outcome"] == "worked");
    QVERIFY(json["classes"].size() == 3u);
    QVERIFY(json["overall"]["difference"]["verdict"] == "improved");
    QVERIFY(json["coordinates"]["percentile"].get<double>() == 0.95);
    QVERIFY(json["phase_shift"]["moved_most"] == "queue");
}

void tst_TraceComparison::identicalProcessesDifferentSeeds()
{
    // Two draws of one process differ only by chance: at the stated 95%,
    // about 5% of such pairs may show a change, no more.
    constexpr int kPairs = 200;
    int unchanged = 0;
    int tooFew = 0;
    int workloadWarnings = 0;
    ComparisonSpec spec;
    for (int pair = 0; pair < kPairs; ++pair) {
        PopulationSpec base;
        base.requests = 400;
        base.seed = 1000 + std::uint64_t(pair);
        PopulationSpec cand = base;
        cand.seed = 5000 + std::uint64_t(pair);
        const auto comparison = compare(makePopulation(base), makePopulation(cand), spec);
        QVERIFY(comparison.ok());
        switch (comparison.overall.difference.verdict) {
        case PercentileDifference::Verdict::NoDetectableChange:
            ++unchanged;
            break;
        case PercentileDifference::Verdict::TooFew:
            ++tooFew;
            break;
        default:
            break;
        }
        workloadWarnings += comparison.workload.warnings().isEmpty() ? 0 : 1;
    }
    const double rate = double(unchanged) / kPairs;
    qInfo("no detectable change in %d of %d pairs (%.1f%%)", unchanged, kPairs, 100.0 * rate);
    QCOMPARE(tooFew, 0);
    // The same process seen twice is a comparable workload, bar the odd chance.
    qInfo("workload warnings in %d of %d pairs", workloadWarnings, kPairs);
    QVERIFY(workloadWarnings <= kPairs / 10);
    QVERIFY2(rate >= 0.92 && rate <= 0.995, qPrintable(QString::number(rate)));
}

void tst_TraceComparison::workloadChangeIsNamed()
{
    PopulationSpec base;
    base.seed = 3;
    base.requests = 1200;
    PopulationSpec cand = base;
    cand.seed = 4;
    cand.meanGapMs = 50.0;   // twice the arrival rate
    cand.promptFactor = 2.5; // longer prompts
    // Half the candidate's requests come from ap, and a region the baseline never saw appears.
    cand.regionOf = [](int i, SeededRandom &) {
        if (i % 10 == 0)
            return QStringLiteral("sa");
        return i % 2 ? QStringLiteral("ap") : (i % 4 ? QStringLiteral("eu") : QStringLiteral("us"));
    };
    ComparisonSpec spec;
    spec.by = {QStringLiteral("region")};
    const TraceComparison comparison = compare(makePopulation(base), makePopulation(cand), spec);
    QVERIFY(comparison.ok());
    const QStringList warnings = comparison.workload.warnings();
    const QString all = warnings.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("arrival rate differs: 10.")), qPrintable(all));
    QVERIFY(all.contains(QStringLiteral("prompt token distribution differs")));
    QVERIFY(all.contains(QStringLiteral("class mix by region changed: ap is")));
    QVERIFY(all.contains(QStringLiteral("region = sa: candidate only (120 requests)")));
    QVERIFY(all.contains(QStringLiteral("read the per-class rows")));
    QVERIFY(!all.contains(QStringLiteral("output token"))); // output lengths were kept
    QVERIFY(comparison.workload.mixChanged);
    const ComparisonCell *sa = cellOf(comparison, QStringLiteral("sa"));
    QVERIFY(sa);
    QVERIFY(sa->oneSided());
    QCOMPARE(sa->baselineRequests, 0);
    QCOMPARE(sa->difference.verdict, PercentileDifference::Verdict::TooFew);
    for (const auto &check : comparison.workload.checks) {
        if (check.key == QLatin1String("arrival_rate")) {
            QVERIFY(check.judged && check.differs);
            QVERIFY(check.measure > 0.8 && check.measure < 1.2); // about +100%
        }
        if (check.key == QLatin1String("output_tokens"))
            QVERIFY(check.judged && !check.differs);
    }
}

void tst_TraceComparison::phaseShiftSplitsExactly()
{
    // Baseline: three requests whose queue and prefill are 1, 1, 2 ms; the
    // candidate: two requests with 1, 1 ms. Each mean changes by -1/3 ms =
    // -333333.33 ns; the total by -666666.67 ns, rounded to -666667, and the
    // parts get -333333 and -333334 (largest remainder), adding up exactly.
    TraceBuilder base;
    for (const double ms : {1.0, 1.0, 2.0})
        base.add(TestRequest().phase(Phase::Queue, ms).phase(Phase::Prefill, ms));
    TraceBuilder cand;
    for (int i = 0; i < 2; ++i)
        cand.add(TestRequest().phase(Phase::Queue, 1.0).phase(Phase::Prefill, 1.0));
    const TraceComparison comparison = compare(base.store(), cand.store(), ComparisonSpec{});
    QVERIFY(comparison.ok());
    const PhaseShift &shift = comparison.phaseShift;
    QCOMPARE(shift.totalChangeNs, -666667);
    const qint64 queue = shift.row(Phase::Queue)->changeNs;
    const qint64 prefill = shift.row(Phase::Prefill)->changeNs;
    QCOMPARE(queue + prefill, -666667);
    QVERIFY((queue == -333333 && prefill == -333334) || (queue == -333334 && prefill == -333333));
    for (const Phase phase : {Phase::NetworkIn, Phase::Gateway, Phase::FirstDecode, Phase::NetworkToFirst})
        QCOMPARE(shift.row(phase)->changeNs, 0);
    QCOMPARE(shift.residualChangeNs, 0);
    QVERIFY(std::abs(shift.baselineMeanMs - (6.0 + 2.0 / 3.0)) < 1e-12);
    QCOMPARE(shift.candidateMeanMs, 6.0);
    // Percentiles side by side (p95 of 1, 1, 2 is 1.9), never added.
    QVERIFY(std::abs(shift.row(Phase::Queue)->baselinePercentileMs - 1.9) < 1e-12);
    QCOMPARE(shift.row(Phase::Queue)->candidatePercentileMs, 1.0);

    // A request without its prefill-end stamp: the prefill and first-decode
    // time it had is residual, never guessed into a phase.
    TraceBuilder gap;
    gap.add(TestRequest());
    TestRequest missing;
    missing.missingStamp = int(Stamp::PrefillEnd);
    gap.add(missing);
    const TraceComparison withGap = compare(base.store(), gap.store(), ComparisonSpec{});
    QVERIFY(withGap.ok());
    qint64 sum = withGap.phaseShift.residualChangeNs;
    for (const auto &row : withGap.phaseShift.phases)
        sum += row.changeNs;
    QCOMPARE(sum, withGap.phaseShift.totalChangeNs);
    QCOMPARE(withGap.phaseShift.residualChangeNs, 1000000); // the missing request's 2 ms over 2 requests
    QCOMPARE(withGap.phaseShift.row(Phase::Prefill)->candidateObserved, 1);
}

void tst_TraceComparison::missesAgainstSloAndBaseline()
{
    // 100 requests each; TTFT = 5 ms + queue, queue 1..100 ms in the baseline, 1..50 twice in the candidate.
    TraceBuilder base;
    TraceBuilder cand;
    for (int i = 1; i <= 100; ++i) {
        base.add(TestRequest().phase(Phase::Queue, i));
        cand.add(TestRequest().phase(Phase::Queue, (i - 1) % 50 + 1));
    }
    ComparisonSpec spec;
    spec.sloMs = 50.0; // TTFT above 50 ms: queue above 45 ms
    TraceComparison comparison = compare(base.store(), cand.store(), spec);
    QVERIFY(comparison.ok());
    QVERIFY(comparison.missesAgainstSlo);
    QCOMPARE(comparison.overall.missThresholdMs, 50.0);
    QCOMPARE(comparison.overall.baselineMisses, 55);
    QCOMPARE(comparison.overall.candidateMisses, 10);
    QCOMPARE(comparison.overall.baselineMissShare(), 0.55);
    QCOMPARE(comparison.overall.candidateMissShare(), 0.10);
    // Goodput follows the TTFT SLO: 45 of 100 meet it in the baseline, 90 in the candidate.
    const Guardrail &goodput = comparison.stopRule.guardrails[2];
    QCOMPARE(goodput.key, QStringLiteral("goodput"));
    QCOMPARE(goodput.baseline, 45.0);
    QCOMPARE(goodput.candidate, 90.0);
    QVERIFY(!goodput.regressed);

    spec.sloMs = std::nan("");
    comparison = compare(base.store(), cand.store(), spec);
    // Without an SLO: above the baseline's own p95 (5 + 95.05 ms).
    QVERIFY(std::abs(comparison.overall.missThresholdMs - 100.05) < 1e-9);
    QCOMPARE(comparison.overall.baselineMisses, 5);
    QCOMPARE(comparison.overall.candidateMisses, 0);
}

void tst_TraceComparison::predictionBesideObservation()
{
    PopulationSpec base;
    base.seed = 21;
    base.requests = 2000;
    base.regions = {QStringLiteral("all")};
    // The what-if "every queue halved" applied to the baseline itself gives
    // the predicted p95 saving; the candidate really halves the queue (and
    // is a fresh draw), so the observation should agree within its interval.
    PopulationSpec halved = base;
    halved.seed = 22;
    halved.queueScaledIn = QStringLiteral("all");
    halved.queueFactor = 0.5;
    const auto baseStore = makePopulation(base);
    const auto candStore = makePopulation(halved);

    // Prediction: re-time every baseline request with its queue halved.
    PopulationSpec predictedSpec = base;
    predictedSpec.queueScaledIn = QStringLiteral("all");
    predictedSpec.queueFactor = 0.5;
    auto predictedStore = makePopulation(predictedSpec); // same seed: the same requests, queue halved
    ComparisonSpec spec;
    const TraceComparison whatIf = compare(baseStore, predictedStore, spec);
    const double predicted = -whatIf.overall.difference.differenceMs;
    QVERIFY(predicted > 20.0);

    spec.predictedSavingMs = predicted;
    const TraceComparison comparison = compare(baseStore, candStore, spec);
    QVERIFY(comparison.prediction.has_value());
    const PredictionCheck &check = *comparison.prediction;
    QCOMPARE(check.predictedMs, predicted);
    QCOMPARE(check.observedMs, -comparison.overall.difference.differenceMs);
    QCOMPARE(check.observedLowerMs, -comparison.overall.difference.upperMs);
    QCOMPARE(check.agreement, PredictionCheck::Agreement::Consistent);
    QVERIFY(check.sentence().contains(QStringLiteral("the prediction lies inside the observed interval")));

    // An optimistic prediction (three times the real saving) is called out.
    spec.predictedSavingMs = 3.0 * predicted;
    const TraceComparison optimistic = compare(baseStore, candStore, spec);
    QCOMPARE(optimistic.prediction->agreement, PredictionCheck::Agreement::SmallerThanPredicted);
    QVERIFY(optimistic.prediction->sentence().contains(QStringLiteral("smaller than predicted")));
    const auto json = ComparisonJson::report(optimistic);
    QVERIFY(json["prediction"]["agreement"] == "smaller_than_predicted");
}

void tst_TraceComparison::percentileChangeReusesSamples()
{
    PopulationSpec base;
    base.requests = 1500;
    PopulationSpec cand = base;
    cand.seed = 2;
    ComparisonSpec spec;
    spec.by = {QStringLiteral("region")};
    const auto samples
        = ComparisonSamples::prepare(ComparisonSide::whole(makePopulation(base), QStringLiteral("b")),
                                     ComparisonSide::whole(makePopulation(cand), QStringLiteral("c")), spec);
    QVERIFY(samples->error.isEmpty());
    QCOMPARE(samples->cellCount(), 3);
    for (const double q : {0.5, 0.9, 0.99}) {
        ComparisonSpec changed = spec;
        changed.q = q;
        const TraceComparison fromSamples = TraceComparison::evaluate(*samples, changed);
        const TraceComparison fresh = compare(samples->baseline.store, samples->candidate.store, [&] {
            ComparisonSpec s = changed;
            return s;
        }());
        QCOMPARE(fromSamples.overall.difference.baseline.value, fresh.overall.difference.baseline.value);
        QCOMPARE(fromSamples.overall.difference.upperMs, fresh.overall.difference.upperMs);
        QCOMPARE(fromSamples.cells[1].difference.candidate.value, fresh.cells[1].difference.candidate.value);
        QCOMPARE(fromSamples.spec.q, q);
    }
    // Another metric needs new samples, and says so instead of answering wrongly.
    ComparisonSpec other = spec;
    other.metric = Metric::E2e;
    QVERIFY(!TraceComparison::evaluate(*samples, other).ok());
    // CDFs for plots: the exact steps of a small class, or 401 percentiles.
    const auto curve = samples->cdf(-1, false, 400);
    QCOMPARE(curve.size(), size_t(401));
    QCOMPARE(curve.back().share, 1.0);
    QCOMPARE(curve.back().x, samples->base.metric.back());
}

void tst_TraceComparison::splitOneTrace()
{
    // One trace, the queue halved for requests sent after 60 s.
    PopulationSpec spec;
    spec.requests = 1200; // about 120 s at 10 req/s
    auto store = makePopulation(spec);
    auto &table = store->requests;
    // Re-time: requests after the split get their queue halved by moving
    // every later stamp back (the store is ours to edit before sharing).
    std::shared_ptr<const TraceStore> shared = store;
    const qint64 split = 60'000'000'000;
    const auto [baseline, candidate] = ComparisonSplit::atTime(shared, split, QStringLiteral("trace.jsonl"));
    qint64 before = 0;
    for (qsizetype row = 0; row < table.rowCount(); ++row)
        before += table.stamp(row, Stamp::ClientSend) < split ? 1 : 0;
    QCOMPARE(baseline.size(), before);
    QCOMPARE(candidate.size(), table.rowCount() - before);
    QCOMPARE(baseline.rejected, -1); // not attributable to a side
    const auto [first, last] = ComparisonSplit::sendRange(*store);
    QCOMPARE(first, table.stamp(0, Stamp::ClientSend));
    QVERIFY(last >= table.stamp(table.rowCount() - 1, Stamp::ClientSend));

    ComparisonSpec compareSpec;
    const auto samples = ComparisonSamples::prepare(baseline, candidate, compareSpec);
    const auto comparison = TraceComparison::evaluate(*samples, compareSpec);
    QVERIFY(comparison.ok());
    QCOMPARE(comparison.overall.difference.verdict, PercentileDifference::Verdict::NoDetectableChange);
    const Guardrail &failed = comparison.stopRule.guardrails[3];
    QCOMPARE(failed.key, QStringLiteral("failed_share"));
    QVERIFY(!failed.judged);
    QVERIFY(failed.note.contains(QStringLiteral("cannot be attributed")));

    QString error;
    ClassFilter eu;
    ClassFilter us;
    QVERIFY(ClassFilter::parse(QStringLiteral("region=eu"), &eu, &error));
    QVERIFY(ClassFilter::parse(QStringLiteral("region=us"), &us, &error));
    const auto [euSide, usSide] = ComparisonSplit::byClasses(shared, eu, us, {}, QStringLiteral("trace.jsonl"), &error);
    QVERIFY(error.isEmpty());
    QCOMPARE(euSide.size(), 400);
    QCOMPARE(usSide.size(), 400);
    QCOMPARE(euSide.label, QStringLiteral("trace.jsonl where region = eu"));
    ClassFilter unknown;
    QVERIFY(ClassFilter::parse(QStringLiteral("region=mars"), &unknown, &error));
    ComparisonSplit::byClasses(shared, eu, unknown, {}, QStringLiteral("trace.jsonl"), &error);
    QVERIFY2(error.startsWith(QStringLiteral("candidate: ")), qPrintable(error));
}

void tst_TraceComparison::cannotCompare_data()
{
    QTest::addColumn<QString>("caseName");
    QTest::addColumn<QString>("expected");
    QTest::newRow("candidate empty") << "empty"
                                     << "the candidate (candidate) has no requests to compare";
    QTest::newRow("metric one side lacks") << "queue-missing"
                                           << "Queue is not observed in the candidate (seed-jsonl); both sides "
                                              "observe: ttft, itl, e2e";
    QTest::newRow("boundary one side lacks") << "server-boundary"
                                             << "TTFT at the server boundary is not observed in the candidate "
                                                "(seed-jsonl) (try --boundary client); both sides observe:";
    QTest::newRow("dimension one side lacks") << "dimension"
                                              << "no dimension 'region' in the candidate";
    QTest::newRow("workflows against requests") << "workflows"
                                                << "the baseline holds agent workflows (otlp-json) and the candidate "
                                                   "single requests (seed-jsonl)";
}

void tst_TraceComparison::cannotCompare()
{
    QFETCH(QString, caseName);
    QFETCH(QString, expected);
    TraceBuilder full;
    for (int i = 0; i < 100; ++i)
        full.add(TestRequest().with(QStringLiteral("region"), QStringLiteral("eu")));
    auto base = full.store();
    base->format = QStringLiteral("seed-jsonl");
    std::shared_ptr<TraceStore> cand;
    ComparisonSpec spec;
    if (caseName == QLatin1String("empty")) {
        cand = std::make_shared<TraceStore>();
    } else if (caseName == QLatin1String("queue-missing") || caseName == QLatin1String("server-boundary")) {
        // Client-side stamps only, like a benchmark's per-request output.
        TraceBuilder client;
        for (int i = 0; i < 100; ++i) {
            TestRequest request;
            client.add(request);
        }
        cand = client.store();
        auto &table = cand->requests;
        RequestTable stripped;
        for (qsizetype row = 0; row < table.rowCount(); ++row) {
            RequestTable::Row copy;
            const std::string id = "c" + std::to_string(row);
            copy.id = id;
            copy.outputTokens = 11;
            copy.stamps.fill(kNoTime);
            for (const Stamp stamp : {Stamp::ClientSend, Stamp::FirstTokenClient, Stamp::LastTokenClient})
                copy.stamps[size_t(stamp)] = table.stamp(row, stamp);
            stripped.appendRow(copy);
        }
        cand->requests = std::move(stripped);
        if (caseName == QLatin1String("queue-missing"))
            spec.metric = phaseMetric(Phase::Queue);
        else
            spec.boundary = Boundary::Server;
    } else if (caseName == QLatin1String("dimension")) {
        TraceBuilder plain;
        for (int i = 0; i < 100; ++i)
            plain.add(TestRequest());
        cand = plain.store();
        spec.by = {QStringLiteral("region")};
    } else {
        cand = full.store();
        // A workflow trace: one workflow row is enough for the check.
        base->workflows.traceIds.append(std::string_view("abc"));
        base->workflows.firstSpan.push_back(0);
        base->workflows.spanCount.push_back(0);
        base->workflows.rootSpan.push_back(-1);
        base->workflows.requestRow.push_back(0);
        base->format = QStringLiteral("otlp-json");
    }
    if (cand->format.isEmpty())
        cand->format = QStringLiteral("seed-jsonl");
    const TraceComparison comparison = compare(base, cand, spec);
    QVERIFY(!comparison.ok());
    QVERIFY2(comparison.error.startsWith(expected), qPrintable(comparison.error));
    const QString text = ComparisonText::report(comparison);
    QVERIFY(text.contains(QStringLiteral("Cannot compare: ") + expected));
    const auto json = ComparisonJson::report(comparison);
    QCOMPARE(QString::fromStdString(json["error"].get<std::string>()), comparison.error);
    if (caseName == QLatin1String("queue-missing")) {
        // What can still be compared is still compared: the workload.
        QVERIFY(!comparison.workload.checks.empty());
        QVERIFY(text.contains(QStringLiteral("Workload check (what can still be compared):")));
    }
}

void tst_TraceComparison::guardrailRegressionStopsTheRule()
{
    // The queue halves (target improves) but the stream doubles: E2E p95
    // regresses far beyond 5%, so the change did not work.
    TraceBuilder base;
    TraceBuilder cand;
    SeededRandom random(7);
    for (int i = 0; i < 400; ++i) {
        const double queue = random.uniform(50.0, 150.0);
        const double stream = random.uniform(900.0, 1100.0);
        base.add(TestRequest().phase(Phase::Queue, std::round(queue)).phase(Phase::Stream, std::round(stream)));
        cand.add(TestRequest().phase(Phase::Queue, std::round(queue / 2)).phase(Phase::Stream, std::round(2 * stream)));
    }
    ComparisonSpec spec;
    spec.suspect = Phase::Queue;
    const TraceComparison comparison = compare(base.store(), cand.store(), spec);
    QVERIFY(comparison.ok());
    const ComparisonStopRule &rule = comparison.stopRule;
    QCOMPARE(rule.target, ComparisonStopRule::Check::Passed);
    QCOMPARE(rule.phase, ComparisonStopRule::Check::Passed);
    QCOMPARE(rule.suspectSource, QStringLiteral("named by the user"));
    QCOMPARE(rule.guardrailsCheck, ComparisonStopRule::Check::Failed);
    QCOMPARE(rule.outcome, ComparisonStopRule::Outcome::DidNotWork);
    QCOMPARE(rule.guardrails[1].key, QStringLiteral("e2e_p95"));
    QVERIFY(rule.guardrails[1].regressed);
    QVERIFY(rule.guardrails[1].note.endsWith(QStringLiteral("regressed beyond 5%")));
    QVERIFY(rule.guardrails[0].regressed); // ITL doubles with the stream
    QVERIFY(!rule.guardrails[2].regressed);
}

void tst_TraceComparison::numericClassesShareTheBaselineBands()
{
    // budget_ms takes 400 values: banded at quartiles. The candidate's budgets
    // are all larger, so its own quartiles would make other classes; it is
    // banded at the baseline's instead (quartiles 250.375, 499.75, 749.125).
    TraceBuilder base;
    TraceBuilder cand;
    for (int i = 0; i < 400; ++i) {
        base.add(TestRequest().withNumber(QStringLiteral("budget_ms"), 1.0 + 2.5 * i));
        cand.add(TestRequest().withNumber(QStringLiteral("budget_ms"), 500.0 + 2.5 * i));
    }
    ComparisonSpec spec;
    spec.by = {QStringLiteral("budget_ms")};
    const TraceComparison comparison = compare(base.store(), cand.store(), spec);
    QVERIFY(comparison.ok());
    QStringList labels;
    for (const auto &cell : comparison.cells)
        labels << cell.label();
    QCOMPARE(labels,
             (QStringList{QStringLiteral("<250.4"), QStringLiteral("250.4\u2013499.8"),
                          QStringLiteral("499.8\u2013749.1"), QStringLiteral("\u2265749.1")}));
    QCOMPARE(comparison.cells[0].candidateRequests, 0);   // no candidate budget below 250.4
    QCOMPARE(comparison.cells[3].candidateRequests, 300); // 750 .. 1497.5
    QCOMPARE(comparison.cells[3].baselineRequests, 100);
    QVERIFY(comparison.notes.contains(QStringLiteral("budget_ms is banded at the baseline's quartiles on both sides")));
}

QTEST_GUILESS_MAIN(tst_TraceComparison)
#include "tst_tracecomparison.moc"
