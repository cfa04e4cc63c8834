// Workflow traces compare as workflows: a population of the seed's governed
// adviser response with the calculation tool's time varying, before and
// after the tool got a third faster. The what-if on the baseline predicts
// the p95 saving; the comparison observes it and shows where the critical
// paths spend their time on each side.

#include "SeededRandom.h"
#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/TraceComparison.h"
#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "io/TraceFileLoader.h"
#include "report/ComparisonText.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

using Json = nlohmann::json;

constexpr qint64 kToolStart = Q_INT64_C(1736935201946000000);
constexpr qint64 kToolNs = 760'000'000;

Json adviser()
{
    QFile file(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the adviser example");
    const QByteArray bytes = file.readAll();
    return Json::parse(bytes.begin(), bytes.end());
}

// Every instant of the workflow moved: `offset` for all, `stretch` more for
// those after the tool started (the tool took that much longer).
void retime(Json &node, qint64 offset, qint64 stretch, const std::string &traceId)
{
    if (node.is_object()) {
        for (auto &[key, value] : node.items()) {
            if (key == "traceId" && value.is_string()) {
                value = traceId;
            } else if ((key == "startTimeUnixNano" || key == "endTimeUnixNano" || key == "intValue")
                       && value.is_string() && value.get<std::string>().size() == 19) {
                const qint64 t = std::stoll(value.get<std::string>());
                value = std::to_string(t + offset + (t > kToolStart ? stretch : 0));
            } else {
                retime(value, offset, stretch, traceId);
            }
        }
    } else if (node.is_array()) {
        for (auto &element : node)
            retime(element, offset, stretch, traceId);
    }
}

struct Population
{
    std::shared_ptr<const TraceStore> store;
    std::vector<double> toolMs;
};

Population population(const QString &path, std::uint64_t seed, int workflows, double toolFactor)
{
    const Json example = adviser();
    SeededRandom random(seed);
    Population result;
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    for (int k = 0; k < workflows; ++k) {
        // Whole milliseconds keep every instant exact.
        const qint64 tool = 1'000'000 * std::llround(760.0 * toolFactor * random.uniform(0.5, 1.5));
        result.toolMs.push_back(double(tool) / 1e6);
        Json copy = example;
        char traceId[33];
        std::snprintf(traceId, sizeof traceId, "%016llx%016llx", static_cast<unsigned long long>(seed),
                      static_cast<unsigned long long>(k + 1));
        retime(copy, qint64(k) * 10'000'000'000, tool - kToolNs, traceId);
        out.write(QByteArray::fromStdString(copy.dump()));
        out.write("\n");
    }
    out.close();
    const LoadResult loaded = TraceFileLoader::load(path, {});
    if (!loaded.ok())
        qFatal("%s", qPrintable(loaded.fatalError));
    result.store = loaded.store;
    return result;
}

} // namespace

class tst_CompareWorkflows : public QObject
{
    Q_OBJECT
private slots:
    void whatIfPredictionAgainstObserved();
};

void tst_CompareWorkflows::whatIfPredictionAgainstObserved()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Population before = population(dir.filePath(QStringLiteral("before.jsonl")), 1, 300, 1.0);
    const Population after = population(dir.filePath(QStringLiteral("after.jsonl")), 2, 300, 2.0 / 3.0);
    QCOMPARE(before.store->workflows.rowCount(), 300);
    QCOMPARE(after.store->workflows.rowCount(), 300);

    // The what-if on the baseline: every calculation tool a third faster.
    WhatIfEdit edit;
    QString error;
    QVERIFY(WhatIfEdit::parseScale(QStringLiteral("execute_tool=2/3"), &edit, &error));
    PopulationWhatIf whatIf({edit});
    const SpanGraphBuilder builder(*before.store);
    for (qint32 workflow = 0; workflow < 300; ++workflow) {
        const auto schedule = WorkflowSchedule::build(builder.build(workflow), &error);
        QVERIFY2(schedule, qPrintable(error));
        whatIf.add(*schedule);
    }
    const PopulationWhatIfResult predicted = whatIf.result(0.95);
    // E2E is 5226 ms plus the tool, so p95 E2E falls by a third of p95 tool time.
    QVERIFY(std::abs(predicted.e2eBeforeMs
                     - (5226.0 +
                        [&] {
                            std::vector<double> sorted = before.toolMs;
                            std::sort(sorted.begin(), sorted.end());
                            const double rank = 0.95 * double(sorted.size() - 1);
                            const size_t i = size_t(rank);
                            return sorted[i] + (sorted[i + 1] - sorted[i]) * (rank - double(i));
                        }()))
            < 1e-6);
    QVERIFY(predicted.e2eSavingMs() > 300.0);

    ComparisonSpec spec;
    spec.metric = Metric::E2e;
    spec.predictedSavingMs = predicted.e2eSavingMs();
    const auto samples = ComparisonSamples::prepare(ComparisonSide::whole(before.store, QStringLiteral("before")),
                                                    ComparisonSide::whole(after.store, QStringLiteral("after")), spec);
    const TraceComparison comparison = TraceComparison::evaluate(*samples, spec);
    QVERIFY2(comparison.ok(), qPrintable(comparison.error));
    QCOMPARE(comparison.overall.difference.verdict, PercentileDifference::Verdict::Improved);
    QVERIFY(comparison.prediction.has_value());
    QCOMPARE(comparison.prediction->agreement, PredictionCheck::Agreement::Consistent);
    QVERIFY(std::abs(comparison.prediction->observedMs - predicted.e2eSavingMs())
            < comparison.overall.difference.detectableMs);

    // As workflows: E2E improved, TTFT (before the tool) did not move at all.
    QVERIFY(comparison.workflows.has_value());
    const WorkflowComparison &workflows = *comparison.workflows;
    QCOMPARE(workflows.e2e.verdict, PercentileDifference::Verdict::Improved);
    QCOMPARE(workflows.ttft.baseline.value, 1550.0);
    QCOMPARE(workflows.ttft.candidate.value, 1550.0);
    QCOMPARE(workflows.ttft.verdict, PercentileDifference::Verdict::NoDetectableChange);
    // Critical paths: the tool's share is its time over the workflows' total.
    QCOMPARE(workflows.baseline.analysed, 300);
    double toolSum = 0.0;
    double e2eSum = 0.0;
    for (const double tool : before.toolMs) {
        toolSum += tool;
        e2eSum += 5226.0 + tool;
    }
    const int tool = int(SpanCategory::Tool);
    QVERIFY(std::abs(workflows.baseline.pathMs - e2eSum) < 1e-6);
    QVERIFY(std::abs(workflows.baseline.share(tool) - toolSum / e2eSum) < 1e-9);
    QVERIFY(workflows.candidate.share(tool) < workflows.baseline.share(tool));
    double shares = 0.0;
    for (int part = 0; part < CriticalPathShares::kParts; ++part)
        shares += workflows.candidate.share(part);
    QVERIFY(std::abs(shares - 1.0) < 1e-12);
    const QString text = ComparisonText::report(comparison);
    QVERIFY(text.contains(QStringLiteral("Workflows: 300 vs 300 (critical paths traced: 300 vs 300)")));
    QVERIFY(text.contains(QStringLiteral("the prediction lies inside the observed interval")));
}

QTEST_GUILESS_MAIN(tst_CompareWorkflows)
#include "tst_compareworkflows.moc"
