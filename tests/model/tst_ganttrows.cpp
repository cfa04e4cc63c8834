#include "SpanGraphSpec.h"

#include "analysis/workflows/GanttRows.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"
#include "support/AdviserScenario.h"

#include <QTest>

class tst_GanttRows : public QObject
{
    Q_OBJECT
private slots:
    void rows_data();
    void rows();
    void deepChain();
    void analysisOfTheAdviserExample();
    void analysisErrorIsKept();
};

namespace {

// "R:0+ A:1 B:1-" — name:depth, + expanded with children, - collapsed.
QString format(const SpanGraph &graph, const std::vector<GanttRow> &rows)
{
    QStringList parts;
    for (const auto &row : rows) {
        QString part = QStringLiteral("%1:%2").arg(graph.name(row.span)).arg(row.depth);
        if (row.hasChildren)
            part += row.expanded ? QLatin1Char('+') : QLatin1Char('-');
        parts << part;
    }
    return parts.join(QLatin1Char(' '));
}

std::vector<quint8> flags(const SpanGraph &graph, const QStringList &names)
{
    std::vector<quint8> out(size_t(graph.spanCount()), 0);
    for (qint32 span = 0; span < graph.spanCount(); ++span)
        out[size_t(span)] = names.contains(graph.name(span)) ? 1 : 0;
    return out;
}

} // namespace

void tst_GanttRows::rows_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QStringList>("collapsed");
    QTest::addColumn<bool>("pathOnly");
    QTest::addColumn<QString>("expected");

    const QString tree = QStringLiteral("R 0 100; B 50 90 R; A 10 40 R; A1 10 20 A; A2 25 40 A; Z 60 70");
    QTest::newRow("children by start time")
        << tree << QStringList{} << false << QStringLiteral("R:0+ A:1+ A1:2 A2:2 B:1 Z:0");
    QTest::newRow("collapsed span hides its subtree")
        << tree << QStringList{QStringLiteral("A")} << false << QStringLiteral("R:0+ A:1- B:1 Z:0");
    QTest::newRow("collapsed root") << tree << QStringList{QStringLiteral("R")} << false << QStringLiteral("R:0- Z:0");
    // The path runs A1, A2 (inside A), then B; Z, a second root, ends early.
    QTest::newRow("critical path only keeps ancestors")
        << tree << QStringList{} << true << QStringLiteral("R:0+ A:1+ A1:2 A2:2 B:1");
    QTest::newRow("critical path only, collapsed")
        << tree << QStringList{QStringLiteral("A")} << true << QStringLiteral("R:0+ A:1- B:1");
}

void tst_GanttRows::rows()
{
    QFETCH(QString, spec);
    QFETCH(QStringList, collapsed);
    QFETCH(bool, pathOnly);
    QFETCH(QString, expected);
    const auto graph = SpanGraphSpec::parse(spec);
    QString error;
    const auto schedule = WorkflowSchedule::build(graph, &error);
    QVERIFY2(schedule, qPrintable(error));
    const auto keep = GanttRows::pathWithAncestors(schedule->tree(), schedule->criticalPath());
    const auto rows = GanttRows::build(*graph, schedule->tree(), flags(*graph, collapsed), pathOnly ? &keep : nullptr);
    QCOMPARE(format(*graph, rows), expected);
}

void tst_GanttRows::deepChain()
{
    auto graph = std::make_shared<SpanGraph>();
    constexpr qint32 depth = 100'000;
    for (qint32 i = 0; i < depth; ++i) {
        SpanGraph::Span span;
        span.parent = i - 1;
        span.start = i;
        span.end = 2 * depth - i;
        graph->appendSpan(span);
    }
    QString error;
    const auto schedule = WorkflowSchedule::build(graph, &error);
    QVERIFY(schedule);
    const auto rows = GanttRows::build(*graph, schedule->tree(), {});
    QCOMPARE(rows.size(), size_t(depth));
    QCOMPARE(rows.back(), (GanttRow{depth - 1, depth - 1, false, true}));
}

void tst_GanttRows::analysisOfTheAdviserExample()
{
    const LoadResult loaded = TraceFileLoader::load(
        QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"), LoadOptions{});
    QVERIFY(loaded.ok());
    const qint32 workflow = WorkflowAnalysis::workflowOfRequestRow(*loaded.store, 0);
    QCOMPARE(workflow, 0);
    QCOMPARE(WorkflowAnalysis::workflowOfRequestRow(*loaded.store, 1), -1);
    const auto analysis = WorkflowAnalysis::analyse(*loaded.store, workflow);
    QVERIFY(analysis.ok());
    QCOMPARE(analysis.workflowId, QStringLiteral("4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c0d"));
    QCOMPARE(analysis.timing.e2e(), qint64(5'986'000'000));
    QCOMPARE(analysis.path.size(), size_t(7));
    QCOMPARE(analysis.schedule->graph().category(analysis.path.back().span), SpanCategory::ModelCall);
    const auto rows = GanttRows::build(analysis.schedule->graph(), analysis.schedule->tree(), {});
    QCOMPARE(format(analysis.schedule->graph(), rows),
             QStringLiteral("governed adviser response:0+ inbound transit:1 gateway and policy:1 retrieval:1+ "
                            "policy retrieval:2 account retrieval:2 prompt assembly:1 model call: tool proposal:1 "
                            "calculation tool:1 model call: final answer:1"));
}

void tst_GanttRows::analysisErrorIsKept()
{
    const auto analysis
        = WorkflowAnalysis::analyse(SpanGraphSpec::parse(QStringLiteral("A 0 10 A")), QStringLiteral("bad"));
    QVERIFY(!analysis.ok());
    QCOMPARE(analysis.error, QStringLiteral("span 'A' (#0) is its own parent"));
    QCOMPARE(analysis.workflowId, QStringLiteral("bad"));
}

QTEST_GUILESS_MAIN(tst_GanttRows)
#include "tst_ganttrows.moc"
