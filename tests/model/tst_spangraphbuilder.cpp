// Workflows loaded by the real loaders, turned into span graphs: the
// bundled adviser example reproduces the acceptance figures, and Jaeger's
// nine critical-path cases pass through the Jaeger JSON loader.

#include "JaegerCriticalPathCases.h"
#include "SpanGraphSpec.h"

#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WhatIf.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/AdviserScenario.h"

#include <QTemporaryDir>
#include <QTest>

Q_DECLARE_METATYPE(WhatIfEdit)

class tst_SpanGraphBuilder : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void adviserStructure();
    void adviserAcceptance();
    void adviserMatchesTheScenarioBuiltInCode();
    void adviserWhatIfs_data();
    void adviserWhatIfs();
    void jaegerCasesThroughTheLoader_data();
    void jaegerCasesThroughTheLoader();

private:
    std::shared_ptr<TraceStore> m_adviser;
};

namespace {

constexpr qint64 kMs = 1'000'000;

std::shared_ptr<TraceStore> load(const QString &path)
{
    const LoadResult result = TraceFileLoader::load(path, LoadOptions{});
    if (!result.ok())
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(result.fatalError));
    return result.store;
}

WorkflowSchedule scheduleOf(std::shared_ptr<SpanGraph> graph)
{
    QString error;
    auto schedule = WorkflowSchedule::build(std::move(graph), &error);
    if (!schedule)
        qFatal("cannot schedule: %s", qPrintable(error));
    return std::move(*schedule);
}

qint32 rowNamed(const SpanGraph &graph, const QString &name)
{
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (graph.name(span) == name)
            return span;
    }
    return -1;
}

WhatIfEdit parsed(bool (*parse)(const QString &, WhatIfEdit *, QString *), const QString &text)
{
    WhatIfEdit edit;
    QString error;
    if (!parse(text, &edit, &error))
        qFatal("%s", qPrintable(error));
    return edit;
}

// Times relative to the workflow's start, so a file and the scenario compare.
QString relativePath(const WorkflowSchedule &schedule)
{
    auto path = schedule.criticalPath();
    for (auto &section : path) {
        section.start -= schedule.timing().start;
        section.end -= schedule.timing().start;
    }
    return SpanGraphSpec::format(schedule.graph(), path, kMs);
}

} // namespace

void tst_SpanGraphBuilder::initTestCase()
{
    m_adviser = load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"));
    QCOMPARE(m_adviser->workflows.rowCount(), 1);
}

void tst_SpanGraphBuilder::adviserStructure()
{
    const auto graph = SpanGraphBuilder(*m_adviser).build(0);
    QCOMPARE(graph->spanCount(), 10);
    // Six recorded dependencies: each step waits for the one before.
    QCOMPARE(graph->dependencies().size(), size_t(6));
    const qint32 call = rowNamed(*graph, QStringLiteral("model call: tool proposal"));
    const auto phases = graph->phases(call);
    QCOMPARE(phases.size(), size_t(3));
    QCOMPARE(phases[0].phase, Phase::Queue);
    QCOMPARE(phases[0].end - phases[0].begin, 610 * kMs);
    QCOMPARE(phases[1].phase, Phase::Prefill);
    QCOMPARE(phases[1].end - phases[1].begin, 285 * kMs);
    QCOMPARE(phases[2].phase, Phase::Stream);
    QCOMPARE(phases[2].end - phases[2].begin, 396 * kMs);
    QCOMPARE(graph->firstToken(call) - graph->start(call), 980 * kMs);
    const qint32 answer = rowNamed(*graph, QStringLiteral("model call: final answer"));
    QCOMPARE(graph->phases(answer).size(), size_t(1)); // no queue/prefill split recorded
    QCOMPARE(WhatIf::finalAnswerSpan(*graph), answer);
    QCOMPARE(graph->sourceRow(answer), m_adviser->workflows.firstSpan[0] + answer);
}

void tst_SpanGraphBuilder::adviserAcceptance()
{
    const auto schedule = scheduleOf(SpanGraphBuilder(*m_adviser).build(0));
    QCOMPARE(schedule.timing().ttft(), 1550 * kMs);
    QCOMPARE(schedule.timing().e2e(), 5986 * kMs);
    QVERIFY(schedule.notices().isEmpty());
    const qint32 account = rowNamed(schedule.graph(), QStringLiteral("account retrieval"));
    QCOMPARE(schedule.slack()[size_t(account)], 150 * kMs);
    QCOMPARE(spansOnPath(schedule.criticalPath(), schedule.graph().spanCount())[size_t(account)], quint8(0));
}

void tst_SpanGraphBuilder::adviserMatchesTheScenarioBuiltInCode()
{
    const auto loaded = scheduleOf(SpanGraphBuilder(*m_adviser).build(0));
    const auto built = scheduleOf(AdviserScenario::graph());
    QCOMPARE(relativePath(loaded), relativePath(built));
    QCOMPARE(relativePath(loaded),
             QStringLiteral("inbound transit 0-70, gateway and policy 70-115, policy retrieval 115-545, "
                            "prompt assembly 545-570, model call: tool proposal 570-1946, "
                            "calculation tool 1946-2706, model call: final answer 2706-5986"));
}

void tst_SpanGraphBuilder::adviserWhatIfs_data()
{
    QTest::addColumn<WhatIfEdit>("edit");
    QTest::addColumn<qint64>("e2eSaving");
    QTest::addColumn<qint64>("ttftSaving");

    QTest::newRow("first prefill -25%") << parsed(&WhatIfEdit::parseScalePhase, QStringLiteral("prefill=-25%"))
                                        << qint64(71'250'000) << qint64(71'250'000);
    QTest::newRow("first queue -50%") << parsed(&WhatIfEdit::parseScalePhase, QStringLiteral("queue=0.5")) << 305 * kMs
                                      << 305 * kMs;
    QTest::newRow("tool -1/3") << parsed(&WhatIfEdit::parseScale, QStringLiteral("execute_tool=2/3"))
                               << qint64(253'333'333) << qint64(0);
    QTest::newRow("final answer 30 tokens shorter")
        << parsed(&WhatIfEdit::parseShortenAnswer, QStringLiteral("30@24")) << 720 * kMs << qint64(0);
    QTest::newRow("account depends on policy")
        << parsed(&WhatIfEdit::parseAddDependency, QStringLiteral("policy retrieval>account retrieval")) << -280 * kMs
        << -280 * kMs;
}

void tst_SpanGraphBuilder::adviserWhatIfs()
{
    QFETCH(WhatIfEdit, edit);
    QFETCH(qint64, e2eSaving);
    QFETCH(qint64, ttftSaving);
    const auto schedule = scheduleOf(SpanGraphBuilder(*m_adviser).build(0));
    const auto outcome = WhatIf::run(schedule, std::span(&edit, 1));
    QVERIFY2(outcome.ok(), qPrintable(outcome.error));
    QVERIFY2(outcome.unmatched.isEmpty(), qPrintable(outcome.unmatched.join(QLatin1Char('\n'))));
    QCOMPARE(outcome.e2eSaving(), e2eSaving);
    QCOMPARE(outcome.ttftSaving(), ttftSaving);
}

void tst_SpanGraphBuilder::jaegerCasesThroughTheLoader_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < 9; ++i)
        QTest::newRow(qPrintable(QStringLiteral("test%1").arg(i + 1))) << i;
}

void tst_SpanGraphBuilder::jaegerCasesThroughTheLoader()
{
    QFETCH(int, index);
    const QString source = QStringLiteral(TRACELANE_REALDATA_DIR "/jaeger-ui/criticalpath-testCases.extracted.json");
    QString error;
    const auto cases = JaegerCases::load(source, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Each case's trace as a Jaeger query-API document.
    QFile file(source);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto document = nlohmann::json::parse(file.readAll().toStdString());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("case.json"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(nlohmann::json{{"data", {document[size_t(index)].at("trace")}}}.dump()));
    out.close();

    const auto store = load(path);
    QCOMPARE(store->workflows.rowCount(), 1);
    const auto schedule = scheduleOf(SpanGraphBuilder(*store).build(0));
    const auto &expected = cases[size_t(index)];
    QStringList want;
    for (const auto &section : expected.expected)
        want << QStringLiteral("%1 %2-%3")
                    .arg(expected.graph->idText(section.span))
                    .arg(section.start / 1000)
                    .arg(section.end / 1000);
    QStringList got;
    for (const auto &section : schedule.criticalPath())
        got << QStringLiteral("%1 %2-%3")
                   .arg(schedule.graph().idText(section.span))
                   .arg(section.start / 1000)
                   .arg(section.end / 1000);
    QCOMPARE(got.join(QStringLiteral(", ")), want.join(QStringLiteral(", ")));
}

QTEST_GUILESS_MAIN(tst_SpanGraphBuilder)
#include "tst_spangraphbuilder.moc"
