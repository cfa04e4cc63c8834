// Critical-path attribution across a population of workflows: the slow set's
// mean excess split exactly over path time by key, how often each key is
// critical and its slack when it is not.

#include "support/AdviserScenario.h"
#include "support/PathFixtures.h"
#include "support/WorkflowPopulation.h"

#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/workflows/PathAttribution.h"
#include "analysis/workflows/SpanKey.h"
#include "analysis/workflows/WorkflowPaths.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "io/TraceFileLoader.h"

#include <QTest>

#include <cmath>

namespace {

using namespace PathFixtures;
using Target = WorkflowPaths::Target;

// The exceedance set of `metric` above p95 and its rest, as the Exceedance
// dock forms them.
ExceedanceSet slowSet(const std::shared_ptr<const TraceStore> &store, Metric metric)
{
    ColumnCache cache(store);
    ExceedanceSpec spec;
    spec.metric = metric;
    return ExceedanceAnalysis::compute(cache, RequestSlice::all(store->requests.rowCount()), spec).set;
}

PathAttribution attribute(const std::shared_ptr<const TraceStore> &store, SpanKeyKind kind, Target target)
{
    const ExceedanceSet set = slowSet(store, target == Target::End ? Metric::E2e : Metric::Ttft);
    const WorkflowPaths paths = WorkflowPaths::compute(*store, 2);
    const SpanKeys keys = SpanKeys::build(*store, kind);
    return PathAttribution::compute(*store, paths, keys, set.members, set.rest, target);
}

} // namespace

class tst_PathAttribution : public QObject
{
    Q_OBJECT
private slots:
    void names_data();
    void names();
    void slowToolOnThePathIsNamed();
    void slowRetrievalServiceIsNamed();
    void slowKeyOffThePathIsNotBlamed();
    void firstTokenPath();
    void ttftAttribution();
    void realTraces_data();
    void realTraces();
};

void tst_PathAttribution::names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("normalised");
    QTest::newRow("path id") << "GET /user/123"
                             << "GET /user/{n}";
    QTest::newRow("counter after underscore") << "tool_call_17"
                                              << "tool_call_{n}";
    QTest::newRow("uuid") << "fetch 123e4567-e89b-12d3-a456-426614174000 done"
                          << "fetch {id} done";
    QTest::newRow("hex id") << "span 9f86d081884c7d65"
                            << "span {id}";
    QTest::newRow("hex word without digits stays") << "deadbeefcafe"
                                                   << "deadbeefcafe";
    QTest::newRow("decimal") << "retry after 1.5 s"
                             << "retry after {n} s";
    QTest::newRow("model version stays") << "chat gpt-4"
                                         << "chat gpt-4";
    QTest::newRow("dotted version stays") << "chat gpt-4.1"
                                          << "chat gpt-4.1";
    QTest::newRow("multi-part version stays") << "claude-3-5-sonnet"
                                              << "claude-3-5-sonnet";
    QTest::newRow("digits inside a word stay") << "llama3 70b"
                                               << "llama3 70b";
    QTest::newRow("long number after a dash") << "chunk-1234"
                                              << "chunk-{n}";
    QTest::newRow("nothing to change") << "call_llm mistral/mistral-small-latest"
                                       << "call_llm mistral/mistral-small-latest";
}

void tst_PathAttribution::names()
{
    QFETCH(QString, name);
    QFETCH(QString, normalised);
    QCOMPARE(normaliseSpanName(name), normalised);
}

void tst_PathAttribution::slowToolOnThePathIsNamed()
{
    // 95 workflows with a 100 ms tool, 5 with a 2,100 ms one; nothing else differs.
    WorkflowPopulation population;
    for (int i = 0; i < 100; ++i)
        population.add(agentWorkflow(i, 100.0, i % 20 == 7 ? 2100.0 : 100.0), i * 10'000.0);
    const auto store = population.store();
    QCOMPARE(store->workflows.rowCount(), 100);

    const PathAttribution byKind = attribute(store, SpanKeyKind::Kind, Target::End);
    QCOMPARE(byKind.setN, 5);
    QCOMPARE(byKind.restN, 95);
    QCOMPARE(byKind.setMeanMs, 3010.0); // 2 + 100 + 2 + 300 + 2 + 2100 + 2 + 500 + 2 (agent end after the answer)
    QCOMPARE(byKind.restMeanMs, 1010.0);
    QCOMPARE(differences(byKind), QStringLiteral("tool=2000.000"));
    checkExact(byKind);
    QCOMPARE(byKind.outsideDifferenceMs, 0.0);
    QVERIFY(byKind.suspect);
    QCOMPARE(byKind.keys[*byKind.suspect].key, QStringLiteral("tool"));
    QVERIFY2(byKind.nextTest.contains(QStringLiteral("cache its results")), qPrintable(byKind.nextTest));
    // The agent's own time between steps: 5 x 2 ms in both groups.
    const auto *gap = byKind.find(QStringLiteral("agent"), true);
    QVERIFY(gap);
    QCOMPARE(gap->setMeanMs, 10.0);
    QCOMPARE(gap->restMeanMs, 10.0);
    QCOMPARE(gap->setShareOnPath, 1.0);
    const auto *tool = byKind.find(QStringLiteral("tool"));
    QCOMPARE(tool->setSumNs, 5 * 2'100'000'000LL);
    QCOMPARE(tool->restSumNs, 95 * 100'000'000LL);
    QCOMPARE(tool->setShareOnPath, 1.0);
    QCOMPARE(tool->restShareOnPath, 1.0);
    QCOMPARE(tool->setMeanOnPathMs, 2100.0);
    QCOMPARE(tool->restMeanOnPathMs, 100.0);

    // By name, the order ids in the tool's name do not split it.
    const PathAttribution byName = attribute(store, SpanKeyKind::Name, Target::End);
    QCOMPARE(differences(byName), QStringLiteral("lookup_order {n}=2000.000"));
    QCOMPARE(byName.keys[*byName.suspect].key, QStringLiteral("lookup_order {n}"));
    QCOMPARE(byName.keys[*byName.suspect].restOnPath, 95);
    checkExact(byName);
}

void tst_PathAttribution::slowRetrievalServiceIsNamed()
{
    // Two retrieval services; the slow workflows are those whose retrieval
    // went to "search-b" and took 1,400 ms more.
    WorkflowPopulation population;
    for (int i = 0; i < 40; ++i) {
        const bool slow = i == 3 || i == 22;
        population.add(agentWorkflow(i, slow ? 1500.0 : 100.0, 100.0, slow || i % 2 ? "search-b" : "search-a"),
                       i * 10'000.0);
    }
    const auto store = population.store();
    const PathAttribution byService = attribute(store, SpanKeyKind::Service, Target::End);
    QCOMPARE(byService.setN, 2);
    QCOMPARE(byService.restN, 38);
    // The rest's retrievals: 19 of 38 on each service, 100 ms each.
    QCOMPARE(differences(byService), QStringLiteral("search-b=1450.000, search-a=-50.000"));
    QCOMPARE(byService.keys[*byService.suspect].key, QStringLiteral("search-b"));
    QVERIFY2(byService.nextTest.contains(QStringLiteral("retrieval service")), qPrintable(byService.nextTest));
    checkExact(byService);
    const auto *b = byService.find(QStringLiteral("search-b"));
    QCOMPARE(b->setShareOnPath, 1.0);
    QCOMPARE(b->restShareOnPath, 0.5);
    QCOMPARE(b->restMeanOnPathMs, 100.0);
    QCOMPARE(byService.differenceMs, 1400.0);
}

void tst_PathAttribution::slowKeyOffThePathIsNotBlamed()
{
    // Two retrievals in parallel: policy (430 ms, on the path) and account
    // (280 ms, 150 ms of slack). In the slow workflows the model call takes
    // 2,000 ms more and account retrieval also slows to 400 ms, still
    // inside policy retrieval: it is not blamed, its slack shrinks to 30 ms.
    WorkflowPopulation population;
    for (int i = 0; i < 60; ++i) {
        const bool slow = i % 20 == 5;
        const double account = slow ? 400.0 : 280.0;
        const double chat = slow ? 2500.0 : 500.0;
        population.add(adviserWorkflow(account, chat), i * 10'000.0);
    }
    const auto store = population.store();
    const PathAttribution byName = attribute(store, SpanKeyKind::Name, Target::End);
    QCOMPARE(byName.setN, 3);
    QCOMPARE(differences(byName), QStringLiteral("chat answer=2000.000"));
    QCOMPARE(byName.keys[*byName.suspect].key, QStringLiteral("chat answer"));
    checkExact(byName);
    const auto *account = byName.find(QStringLiteral("account retrieval"));
    QVERIFY(account);
    QCOMPARE(account->differenceMs, 0.0);
    QCOMPARE(account->setOnPath, 0);
    QCOMPARE(account->restOnPath, 0);
    QCOMPARE(account->setOffPath, 3);
    QCOMPARE(account->restOffPath, 57);
    QCOMPARE(account->setSlackMedianMs, 30.0);
    QCOMPARE(account->restSlackMedianMs, 150.0);
    const auto *policy = byName.find(QStringLiteral("policy retrieval"));
    QCOMPARE(policy->setShareOnPath, 1.0);
    QCOMPARE(policy->setOffPath, 0);
    QVERIFY(std::isnan(policy->setSlackMedianMs));
    // The root's 10 ms between the retrievals and the answer is coordination.
    QCOMPARE(byName.find(QStringLiteral("adviser"), true)->setMeanMs, 10.0);
}

void tst_PathAttribution::firstTokenPath()
{
    // The adviser's first token: inbound 70, gateway 45, policy retrieval
    // 430, prompt assembly 25, then the model call's queue, prefill and first
    // decode (980) = 1,550 ms; account retrieval has 150 ms of slack to it.
    QString error;
    const auto schedule = WorkflowSchedule::build(AdviserScenario::graph(), &error);
    QVERIFY2(schedule, qPrintable(error));
    const auto path = schedule->firstTokenPath();
    qint64 total = 0;
    QStringList parts;
    for (const auto &section : path) {
        total += section.duration();
        parts << QStringLiteral("%1 %2").arg(schedule->graph().name(section.span)).arg(section.duration() / 1'000'000);
    }
    QCOMPARE(parts.join(QStringLiteral(", ")),
             QStringLiteral("inbound transit 70, gateway and policy 45, policy retrieval 430, prompt assembly 25, "
                            "model call: tool proposal 980"));
    QCOMPARE(total, schedule->timing().ttft());
    const auto slack = schedule->slackToFirstToken();
    for (qint32 span = 0; span < schedule->graph().spanCount(); ++span) {
        const QString name = schedule->graph().name(span);
        if (name == QStringLiteral("account retrieval"))
            QCOMPARE(slack[size_t(span)], 150'000'000LL);
        else if (name == QStringLiteral("calculation tool") || name == QStringLiteral("model call: final answer"))
            QCOMPARE(slack[size_t(span)], ScheduleGraph::kUnbounded);
    }
}

void tst_PathAttribution::ttftAttribution()
{
    // A workflow's TTFT path ends inside its first model call; the tool and
    // the answer after it do not count. Built from the bundled adviser with
    // its first queue 610 ms in most copies and 2,610 ms in a few.
    // (Loaded through OTLP: the model calls carry first-token stamps.)
    const LoadResult adviser
        = TraceFileLoader::load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"), {});
    QVERIFY(adviser.ok());
    const WorkflowPaths paths = WorkflowPaths::compute(*adviser.store, 1);
    QCOMPARE(paths.total(Target::FirstToken, 0), 1'550'000'000LL);
    QCOMPARE(paths.total(Target::End, 0), 5'986'000'000LL);
    qint64 sum = 0;
    for (const auto &section : paths.path(Target::FirstToken, 0))
        sum += section.ns;
    QCOMPARE(sum, 1'550'000'000LL);
    const SpanKeys keys = SpanKeys::build(*adviser.store, SpanKeyKind::Kind);
    // One workflow against itself: every difference is 0, the split exact.
    const std::vector<qint32> rows{0};
    const PathAttribution self = PathAttribution::compute(*adviser.store, paths, keys, rows, rows, Target::FirstToken);
    QCOMPARE(self.setMeanMs, 1550.0);
    QCOMPARE(self.find(QStringLiteral("model call"))->setMeanMs, 980.0);
    QCOMPARE(self.find(QStringLiteral("retrieval"))->setMeanMs, 430.0);
    QVERIFY(!self.find(QStringLiteral("tool")));
    QCOMPARE(self.find(QStringLiteral("retrieval"))->setOffPath, 0); // policy is on it: the key is not off the path
    checkExact(self);
}

void tst_PathAttribution::realTraces_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("keyKind");
    QTest::addColumn<int>("setN");
    QTest::addColumn<int>("restN");
    QTest::addColumn<QString>("suspect");
    QTest::addColumn<double>("suspectMs");
    // The demo's seven slowest requests wait on feature-flag event streams
    // (flagd) and on the frontend's cart calls.
    QTest::newRow("OpenTelemetry demo, by kind")
        << "otel-tui/test_data.json" << int(SpanKeyKind::Kind) << 7 << 134 << "other" << 19054.402;
    QTest::newRow("OpenTelemetry demo, by service")
        << "otel-tui/test_data.json" << int(SpanKeyKind::Service) << 7 << 134 << "flagd" << 16586.453;
    QTest::newRow("OpenTelemetry demo, by name") << "otel-tui/test_data.json" << int(SpanKeyKind::Name) << 7 << 134
                                                 << "schema.v1.Service/EventStream" << 12280.751;
    QTest::newRow("any-agent OpenAI") << "any-agent/OPENAI_trace.json" << int(SpanKeyKind::Kind) << 0 << 0 << QString()
                                      << 0.0;
    QTest::newRow("any-agent Google") << "any-agent/GOOGLE_trace.json" << int(SpanKeyKind::Kind) << 0 << 0 << QString()
                                      << 0.0;
    QTest::newRow("Langfuse") << "langfuse/microsoft-agent-2025-12-17.trace.json" << int(SpanKeyKind::Kind) << 0 << 0
                              << QString() << 0.0;
}

void tst_PathAttribution::realTraces()
{
    QFETCH(QString, file);
    QFETCH(int, keyKind);
    QFETCH(int, setN);
    QFETCH(int, restN);
    QFETCH(QString, suspect);
    QFETCH(double, suspectMs);
    const LoadResult result = TraceFileLoader::load(QStringLiteral(TRACELANE_REALDATA_DIR "/") + file, {});
    QVERIFY(result.ok());
    const auto &store = *result.store;
    const WorkflowPaths paths = WorkflowPaths::compute(store, 2);
    QCOMPARE(paths.failedCount(), 0);
    // Every workflow's path adds up to its E2E exactly.
    for (qint32 w = 0; w < paths.workflowCount(); ++w) {
        qint64 sum = 0;
        for (const auto &section : paths.path(Target::End, w))
            sum += section.ns;
        QCOMPARE(sum, paths.total(Target::End, w));
    }
    const SpanKeys keys = SpanKeys::build(store, SpanKeyKind(keyKind));
    PathAttribution attribution;
    if (setN > 0) {
        attribution = attribute(result.store, SpanKeyKind(keyKind), Target::End);
        QCOMPARE(attribution.setN, setN);
        QCOMPARE(attribution.restN, restN);
        QVERIFY(attribution.suspect);
        QCOMPARE(attribution.label(attribution.keys[*attribution.suspect]), suspect);
        QCOMPARE(qRound64(attribution.keys[*attribution.suspect].differenceMs * 1000.0), qRound64(suspectMs * 1000.0));
    } else {
        // One workflow per file: its own path against itself.
        std::vector<qint32> rows;
        for (qint32 row = 0; row < store.requests.rowCount(); ++row)
            rows.push_back(row);
        attribution = PathAttribution::compute(store, paths, keys, rows, rows, Target::End);
    }
    checkExact(attribution);
    // No residual beyond coordination gaps: every ns of every workflow's E2E
    // is a span's own work, a parent's time around its children, or a span's
    // time past its parent's end (the demo's async frontend calls) - never
    // time outside the tree, never idle.
    QCOMPARE(attribution.outsideSetMeanMs, 0.0);
    QCOMPARE(attribution.outsideRestMeanMs, 0.0);
    for (const auto &key : attribution.keys)
        QVERIFY2(!key.idle, qPrintable(file));
}

QTEST_GUILESS_MAIN(tst_PathAttribution)
#include "tst_pathattribution.moc"
