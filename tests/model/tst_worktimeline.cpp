#include "analysis/workflows/WorkTimeline.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QHash>
#include <QTest>

#include <memory>
#include <string>

namespace {

// A workflow written as text, one entry per span or phase:
//   "ID START END PARENT CATEGORY [client]"  (PARENT "-" for a root)
//   "ID.PHASE BEGIN END"                     (a phase of the span just added)
// times in ms; CATEGORY is a spanCategoryKey (agent, model_call, tool, ...).
std::shared_ptr<SpanGraph> parse(const QString &spec)
{
    auto graph = std::make_shared<SpanGraph>();
    QHash<QString, qint32> rowOf;
    std::vector<std::string> ids;
    ids.reserve(64);
    for (const QString &raw : spec.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const auto parts = raw.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (parts[0].contains(QLatin1Char('.'))) {
            Phase phase = Phase::Queue;
            if (!phaseFromKey(parts[0].section(QLatin1Char('.'), 1), &phase))
                qFatal("bad phase in %s", qPrintable(raw));
            graph->appendPhase({phase, parts[1].toLongLong() * 1'000'000, parts[2].toLongLong() * 1'000'000});
            continue;
        }
        ids.push_back(parts[0].toStdString());
        SpanGraph::Span span;
        span.id = ids.back();
        span.name = parts[0];
        span.start = parts[1].toLongLong() * 1'000'000;
        span.end = parts[2].toLongLong() * 1'000'000;
        span.parent = parts[3] == QStringLiteral("-") ? -1 : rowOf.value(parts[3], -9);
        if (!spanCategoryFromKey(parts[4], &span.category))
            qFatal("bad category in %s", qPrintable(raw));
        if (parts.size() > 5 && parts[5] == QStringLiteral("client"))
            span.kind = SpanKind::Client;
        rowOf.insert(parts[0], graph->appendSpan(span));
    }
    return graph;
}

// "tool:T 20-60, coordination:R 60-100" (ms; "-" for idle time).
QString format(const SpanGraph &graph, const std::vector<WorkSegment> &segments)
{
    QStringList parts;
    for (const auto &segment : segments) {
        const QString who = segment.span < 0 ? QStringLiteral("-") : graph.label(segment.span);
        parts.append(QStringLiteral("%1:%2 %3-%4")
                         .arg(workKindKey(segment.kind), who)
                         .arg(double(segment.begin) / 1e6)
                         .arg(double(segment.end) / 1e6));
    }
    return parts.join(QStringLiteral(", "));
}

WorkTimeline timelineOf(const std::shared_ptr<SpanGraph> &graph)
{
    QString error;
    const auto schedule = WorkflowSchedule::build(graph, &error);
    if (!schedule)
        qFatal("%s", qPrintable(error));
    return WorkTimeline::of(*schedule, schedule->criticalPath());
}

} // namespace

class tst_WorkTimeline : public QObject
{
    Q_OBJECT
private slots:
    void constructed_data();
    void constructed();
    void modelCallPhases_data();
    void modelCallPhases();
    void adviserExample();
    void lookupByTime();
};

void tst_WorkTimeline::constructed_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("offPath");
    QTest::newRow("agent's own time is coordination")
        << QStringLiteral("R 0 100 - agent; T 20 60 R tool")
        << QStringLiteral("coordination:R 0-20, tool:T 20-60, coordination:R 60-100") << QString();
    QTest::newRow("client call around a server span: transit is network")
        << QStringLiteral("C 0 100 - other client; S 10 90 C other")
        << QStringLiteral("network:C 0-10, other:S 10-90, network:C 90-100") << QString();
    QTest::newRow("unnamed parent is coordination, unnamed leaf is other")
        << QStringLiteral("P 0 100 - other; L 30 70 P other")
        << QStringLiteral("coordination:P 0-30, other:L 30-70, coordination:P 70-100") << QString();
    QTest::newRow("parallel branch is off the path")
        << QStringLiteral("R 0 100 - agent; X 0 80 R tool; Y 0 50 R retrieval")
        << QStringLiteral("tool:X 0-80, coordination:R 80-100") << QStringLiteral("retrieval:Y 0-50");
    QTest::newRow("off-path branch shows its deepest running span")
        << QStringLiteral("R 0 100 - agent; X 0 100 R tool; Y 0 60 R retrieval; E 10 30 Y embeddings")
        << QStringLiteral("tool:X 0-100") << QStringLiteral("retrieval:Y 0-10, embeddings:E 10-30, retrieval:Y 30-60");
    QTest::newRow("ancestor of the path is not off-path work")
        << QStringLiteral("R 0 100 - agent; G 0 100 R retrieval; P 0 100 G retrieval; A 0 40 G retrieval")
        << QStringLiteral("retrieval:P 0-100") << QStringLiteral("retrieval:A 0-40");
    QTest::newRow("gap between roots is idle")
        << QStringLiteral("A 0 10 - tool; B 20 30 - tool") << QStringLiteral("tool:A 0-10, idle:- 10-20, tool:B 20-30")
        << QString();
    QTest::newRow("sequence of kinds") << QStringLiteral(
        "R 0 100 - agent; N 0 5 R network; G 5 10 R gateway; Q 10 20 R retrieval;"
        " P 20 25 R preparation; M 25 90 R model_call; T 90 100 R tool")
                                       << QStringLiteral(
                                              "network:N 0-5, gateway:G 5-10, retrieval:Q 10-20, preparation:P 20-25,"
                                              " model_call:M 25-90, tool:T 90-100")
                                       << QString();
}

void tst_WorkTimeline::constructed()
{
    QFETCH(QString, spec);
    QFETCH(QString, path);
    QFETCH(QString, offPath);
    const auto graph = parse(spec);
    const WorkTimeline timeline = timelineOf(graph);
    QCOMPARE(format(*graph, timeline.path), path);
    QCOMPARE(format(*graph, timeline.offPath), offPath);
}

void tst_WorkTimeline::modelCallPhases_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("path");
    QTest::newRow("vLLM latencies: queue, prefill, first decode, then decode to the end")
        << QStringLiteral("M 0 100 - model_call; M.queue 0 10; M.prefill 10 30; M.first_decode 30 35")
        << QStringLiteral("queue:M 0-10, prefill:M 10-30, first_token:M 30-35, decode:M 35-100");
    QTest::newRow("prefill known, first token at the client: the wait between is first token")
        << QStringLiteral("M 0 100 - model_call; M.queue 0 40; M.prefill 40 60; M.stream 70 100")
        << QStringLiteral("queue:M 0-40, prefill:M 40-60, first_token:M 60-70, decode:M 70-100");
    QTest::newRow("only the first token known: the time before it is not split")
        << QStringLiteral("M 0 100 - model_call; M.stream 40 95")
        << QStringLiteral("model_call:M 0-40, decode:M 40-100");
    QTest::newRow("no stamps: one model call")
        << QStringLiteral("M 0 100 - model_call") << QStringLiteral("model_call:M 0-100");
    QTest::newRow("queue known, prefill not: the rest before the first token is not guessed")
        << QStringLiteral("M 0 100 - model_call; M.queue 0 30; M.stream 60 100")
        << QStringLiteral("queue:M 0-30, model_call:M 30-60, decode:M 60-100");
    QTest::newRow("phases clipped to the path section")
        << QStringLiteral("R 0 100 - agent; M 20 80 R model_call; M.queue 10 30; M.prefill 30 50; M.stream 50 90")
        << QStringLiteral("coordination:R 0-20, queue:M 20-30, prefill:M 30-50, decode:M 50-80,"
                          " coordination:R 80-100");
}

void tst_WorkTimeline::modelCallPhases()
{
    QFETCH(QString, spec);
    QFETCH(QString, path);
    const auto graph = parse(spec);
    QCOMPARE(format(*graph, timelineOf(graph).path), path);
}

void tst_WorkTimeline::adviserExample()
{
    // The seed's governed adviser response, as the bundled OTLP example
    // writes it: every critical section at its known times (ms from start).
    const auto result
        = TraceFileLoader::load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"), {});
    QVERIFY(result.ok());
    const WorkflowAnalysis analysis = WorkflowAnalysis::analyse(*result.store, 0);
    QVERIFY(analysis.ok());
    const SpanGraph &graph = analysis.schedule->graph();
    WorkTimeline timeline = WorkTimeline::of(*analysis.schedule, analysis.path);
    const qint64 start = analysis.timing.start;
    for (auto *segments : {&timeline.path, &timeline.offPath}) {
        for (auto &segment : *segments) {
            segment.begin -= start;
            segment.end -= start;
        }
    }
    QCOMPARE(format(graph, timeline.path),
             QStringLiteral("network:inbound transit 0-70, gateway:gateway and policy 70-115,"
                            " retrieval:policy retrieval 115-545, preparation:prompt assembly 545-570,"
                            " queue:model call: tool proposal 570-1180, prefill:model call: tool proposal 1180-1465,"
                            " first_token:model call: tool proposal 1465-1550,"
                            " decode:model call: tool proposal 1550-1946, tool:calculation tool 1946-2706,"
                            " model_call:model call: final answer 2706-3346,"
                            " decode:model call: final answer 3346-5986"));
    QCOMPARE(format(graph, timeline.offPath), QStringLiteral("retrieval:account retrieval 115-395"));
}

void tst_WorkTimeline::lookupByTime()
{
    const auto graph = parse(QStringLiteral("A 0 10 - tool; B 20 30 - tool"));
    const WorkTimeline timeline = timelineOf(graph);
    QCOMPARE(WorkTimeline::at(timeline.path, 0)->kind, WorkKind::Tool);
    QCOMPARE(WorkTimeline::at(timeline.path, 9'999'999)->span, 0);
    QCOMPARE(WorkTimeline::at(timeline.path, 10'000'000)->kind, WorkKind::Idle);
    QCOMPARE(WorkTimeline::at(timeline.path, 25'000'000)->span, 1);
    QVERIFY(!WorkTimeline::at(timeline.path, 30'000'000));
    QVERIFY(!WorkTimeline::at(timeline.path, -1));
    QVERIFY(!WorkTimeline::at(timeline.offPath, 5'000'000));
}

QTEST_GUILESS_MAIN(tst_WorkTimeline)
#include "tst_worktimeline.moc"
