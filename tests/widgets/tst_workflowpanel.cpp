// The workflow view: Gantt geometry, the critical-path table, the what-if
// panel and the dock that ties them to the view-state, on the bundled
// governed adviser response.

#include "SpanCategoryColors.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowGantt.h"
#include "WorkflowGanttCoordinates.h"
#include "WorkflowPanel.h"
#include "WorkflowPathModel.h"

#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

namespace {

std::shared_ptr<const TraceStore> adviser()
{
    const LoadResult result = TraceFileLoader::load(
        QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"), LoadOptions{});
    if (!result.ok())
        qFatal("cannot load the adviser example: %s", qPrintable(result.fatalError));
    return result.store;
}

qint32 spanNamed(const WorkflowAnalysis &analysis, const QString &name)
{
    const SpanGraph &graph = analysis.schedule->graph();
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (graph.name(span) == name)
            return span;
    }
    return -1;
}

QStringList column(const QAbstractItemModel &model, int column, int role = Qt::DisplayRole)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, column).data(role).toString());
    return values;
}

// A panel showing the adviser workflow, analysed.
struct Fixture
{
    ViewState state;
    WorkflowPanel panel{&state};

    Fixture()
    {
        state.setStore(adviser());
        panel.resize(1000, 700);
        QSignalSpy shown(&panel, &WorkflowPanel::analysisShown);
        state.setCurrentRow(0);
        if (shown.isEmpty() && !shown.wait(10'000))
            qFatal("the workflow was not analysed");
    }

    // Runs `change` and waits until its what-if is shown (at once when it
    // is "no change", else when the background job is done).
    template<typename Change>
    void whatIf(Change change)
    {
        QSignalSpy shown(&panel, &WorkflowPanel::whatIfShown);
        change();
        if (shown.isEmpty() && !shown.wait(10'000))
            qFatal("the what-if did not arrive");
    }
};

} // namespace

class tst_WorkflowPanel : public QObject
{
    Q_OBJECT
private slots:
    void timeCoordinates_data();
    void timeCoordinates();
    void rowCoordinates_data();
    void rowCoordinates();
    void tickSteps_data();
    void tickSteps();
    void pathModel();
    void panelShowsTheCurrentWorkflow();
    void collapseAndCriticalPathOnly();
    void whatIfRedrawsAtOnce_data();
    void whatIfRedrawsAtOnce();
    void noSignalWhenNothingChanged();
    void pixels();
    void newStoreClears();
};

void tst_WorkflowPanel::timeCoordinates_data()
{
    QTest::addColumn<qint64>("time");
    QTest::addColumn<double>("x");
    // 0..1000 ns onto 100..600 px.
    QTest::newRow("left edge") << qint64(0) << 100.0;
    QTest::newRow("middle") << qint64(500) << 350.0;
    QTest::newRow("right edge") << qint64(1000) << 600.0;
    QTest::newRow("before the frame") << qint64(-200) << 0.0;
}

void tst_WorkflowPanel::timeCoordinates()
{
    QFETCH(qint64, time);
    QFETCH(double, x);
    const WorkflowGanttCoordinates::TimeFrame frame{0, 1000, 100, 500};
    QCOMPARE(WorkflowGanttCoordinates::xOf(frame, time), x);
    QCOMPARE(WorkflowGanttCoordinates::timeAt(frame, x), time);
}

void tst_WorkflowPanel::rowCoordinates_data()
{
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("y");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("top");
    // Header 30 px, rows 20 px, 10 rows.
    QTest::newRow("header") << 0 << 10 << -1 << 0;
    QTest::newRow("first row") << 0 << 30 << 0 << 30;
    QTest::newRow("third row") << 0 << 75 << 2 << 70;
    QTest::newRow("past the last row") << 0 << 240 << -1 << 0;
    QTest::newRow("last row") << 0 << 229 << 9 << 210;
    QTest::newRow("scrolled by 4") << 4 << 35 << 4 << 30;
}

void tst_WorkflowPanel::rowCoordinates()
{
    QFETCH(int, first);
    QFETCH(int, y);
    QFETCH(int, row);
    QFETCH(int, top);
    const WorkflowGanttCoordinates::Rows rows{30, 20, first, 10};
    QCOMPARE(WorkflowGanttCoordinates::rowAt(rows, y), row);
    if (row >= 0)
        QCOMPARE(WorkflowGanttCoordinates::rowTop(rows, row), top);
    const auto [from, to] = WorkflowGanttCoordinates::visibleRows(rows, 95);   // 65 px: 3.25 rows
    QCOMPARE(from, first);
    QCOMPARE(to, std::min(10, first + 4));
}

void tst_WorkflowPanel::tickSteps_data()
{
    QTest::addColumn<qint64>("span");
    QTest::addColumn<int>("width");
    QTest::addColumn<qint64>("step");
    QTest::newRow("6 s over 600 px, 90 px apart") << qint64(6'000'000'000) << 600 << qint64(1'000'000'000);
    QTest::newRow("100 ms over 1000 px") << qint64(100'000'000) << 1000 << qint64(10'000'000);
    QTest::newRow("100 µs over 500 px") << qint64(100'000) << 500 << qint64(20'000);
}

void tst_WorkflowPanel::tickSteps()
{
    QFETCH(qint64, span);
    QFETCH(int, width);
    QFETCH(qint64, step);
    QCOMPARE(WorkflowGanttCoordinates::tickStep({0, span, 0, width}, 90), step);
}

void tst_WorkflowPanel::pathModel()
{
    const auto store = adviser();
    const auto analysis = WorkflowAnalysis::analyse(*store, 0);
    WorkflowPathModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setPath(analysis.schedule, analysis.path, analysis.timing);
    QCOMPARE(model.rowCount(), 7);
    QCOMPARE(column(model, WorkflowPathModel::SpanColumn),
             (QStringList{QStringLiteral("inbound transit"), QStringLiteral("gateway and policy"),
                          QStringLiteral("policy retrieval"), QStringLiteral("prompt assembly"),
                          QStringLiteral("model call: tool proposal"), QStringLiteral("calculation tool"),
                          QStringLiteral("model call: final answer")}));
    QCOMPARE(column(model, WorkflowPathModel::StartColumn),
             (QStringList{QStringLiteral("0.00"), QStringLiteral("70.00"), QStringLiteral("115.00"),
                          QStringLiteral("545.00"), QStringLiteral("570.00"), QStringLiteral("1946.00"),
                          QStringLiteral("2706.00")}));
    QCOMPARE(model.index(5, WorkflowPathModel::DurationColumn).data().toString(), QStringLiteral("760.00"));
    QCOMPARE(model.index(5, WorkflowPathModel::DurationColumn).data(WorkflowPathModel::SortRole).toLongLong(),
             qint64(760'000'000));
    QCOMPARE(model.index(6, WorkflowPathModel::ShareColumn).data().toString(), QStringLiteral("54.8%"));
    QCOMPARE(model.index(4, WorkflowPathModel::KindColumn).data().toString(), QStringLiteral("chat"));
    QCOMPARE(model.index(2, 0).data(WorkflowPathModel::SpanRole).toInt(), spanNamed(analysis, QStringLiteral("policy retrieval")));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void tst_WorkflowPanel::panelShowsTheCurrentWorkflow()
{
    Fixture fixture;
    WorkflowPanel &panel = fixture.panel;
    QCOMPARE(panel.workflow(), 0);
    QCOMPARE(panel.title()->text(),
             QStringLiteral("Workflow 4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c0d: 10 spans, E2E 5986.00 ms, TTFT 1550.00 ms"));
    QCOMPARE(panel.gantt()->rows().size(), size_t(10));
    QCOMPARE(panel.pathModel()->rowCount(), 7);
    // Clicking a span in the Gantt makes it the what-if's target.
    const qint32 tool = spanNamed(panel.analysis(), QStringLiteral("calculation tool"));
    panel.gantt()->setSelectedSpan(tool);
    panel.whatIfPanel()->setChange(WhatIfPanel::Change::ScaleSpan);
    panel.gantt()->setSelectedSpan(tool);
    const auto edits = panel.whatIfPanel()->edits();
    QCOMPARE(edits.size(), size_t(1));
    QCOMPARE(edits.front().target.text, QStringLiteral("0000000000ad0009"));
}

void tst_WorkflowPanel::collapseAndCriticalPathOnly()
{
    Fixture fixture;
    WorkflowGantt *gantt = fixture.panel.gantt();
    const qint32 retrieval = spanNamed(fixture.panel.analysis(), QStringLiteral("retrieval"));
    const qint32 account = spanNamed(fixture.panel.analysis(), QStringLiteral("account retrieval"));
    const qint32 policy = spanNamed(fixture.panel.analysis(), QStringLiteral("policy retrieval"));
    gantt->setCollapsed(retrieval, true);
    QCOMPARE(gantt->rows().size(), size_t(8));
    QVERIFY(gantt->barRect(policy).isEmpty());
    gantt->setCollapsed(retrieval, false);
    gantt->setCriticalPathOnly(true);
    QCOMPARE(gantt->rows().size(), size_t(9));   // all but account retrieval
    QVERIFY(gantt->barRect(account).isEmpty());
    QVERIFY(!gantt->barRect(policy).isEmpty());
}

void tst_WorkflowPanel::whatIfRedrawsAtOnce_data()
{
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("result");
    QTest::addColumn<QString>("toolStart");   // new start of the tool in the path table

    QTest::newRow("first prefill x0.75") << int(WhatIfPanel::Change::ScalePhase)
                                         << QStringLiteral("E2E</b> 5986.00 → 5914.75 ms (saves 71.25 ms)")
                                         << QStringLiteral("1874.75");
    QTest::newRow("final answer 30 tokens shorter") << int(WhatIfPanel::Change::ShortenAnswer)
                                                    << QStringLiteral("E2E</b> 5986.00 → 5266.00 ms (saves 720.00 ms)")
                                                    << QStringLiteral("1946.00");
}

void tst_WorkflowPanel::whatIfRedrawsAtOnce()
{
    QFETCH(int, change);
    QFETCH(QString, result);
    QFETCH(QString, toolStart);
    Fixture fixture;
    WorkflowPanel &panel = fixture.panel;
    const qint32 tool = spanNamed(panel.analysis(), QStringLiteral("calculation tool"));
    const QRectF before = panel.gantt()->barRect(tool);
    WhatIfPanel *whatIf = panel.whatIfPanel();
    whatIf->setPhase(Phase::Prefill);
    whatIf->setFactor(0.75);
    whatIf->setTokens(30, 24.0);
    fixture.whatIf([&] { whatIf->setChange(WhatIfPanel::Change(change)); });
    const auto *label = panel.findChild<QLabel *>(QStringLiteral("whatIfResult"));
    QVERIFY2(label->text().contains(result), qPrintable(label->text()));
    QCOMPARE(panel.pathModel()->index(5, WorkflowPathModel::StartColumn).data().toString(), toolStart);
    const QRectF after = panel.gantt()->barRect(tool);
    QCOMPARE(after.left() < before.left(), toolStart != QStringLiteral("1946.00"));

    // Back to no change: the recorded workflow again.
    fixture.whatIf([&] { whatIf->setChange(WhatIfPanel::Change::None); });
    QCOMPARE(panel.gantt()->barRect(tool), before);
    QCOMPARE(panel.pathModel()->index(5, WorkflowPathModel::StartColumn).data().toString(), QStringLiteral("1946.00"));
}

void tst_WorkflowPanel::noSignalWhenNothingChanged()
{
    Fixture fixture;
    WorkflowGantt *gantt = fixture.panel.gantt();
    QSignalSpy selected(gantt, &WorkflowGantt::spanSelected);
    gantt->setSelectedSpan(3);
    gantt->setSelectedSpan(3);
    QCOMPARE(selected.count(), 1);
    QSignalSpy analysed(&fixture.panel, &WorkflowPanel::analysisShown);
    fixture.state.setCurrentRow(0);   // same workflow: nothing to redo
    QTest::qWait(50);
    QCOMPARE(analysed.count(), 0);
}

void tst_WorkflowPanel::pixels()
{
    Fixture fixture;
    WorkflowGantt *gantt = fixture.panel.gantt();
    gantt->resize(900, 300);
    const QImage image = gantt->grab().toImage();
    const auto &analysis = fixture.panel.analysis();
    const qint32 account = spanNamed(analysis, QStringLiteral("account retrieval"));
    const qint32 tool = spanNamed(analysis, QStringLiteral("calculation tool"));

    // The tool's bar in the tool colour, with the critical-path band at its foot.
    const QRectF toolBar = gantt->barRect(tool);
    QCOMPARE(image.pixelColor(toolBar.center().toPoint()), SpanCategoryColors::of(SpanCategory::Tool));
    QCOMPARE(image.pixelColor(QPoint(int(toolBar.center().x()), int(toolBar.bottom()) - 2)),
             SpanCategoryColors::criticalPath());
    // Account retrieval: no band, and a 150 ms slack whisker after its end.
    const QRectF accountBar = gantt->barRect(account);
    QCOMPARE(image.pixelColor(QPoint(int(accountBar.center().x()), int(accountBar.bottom()) - 2)),
             SpanCategoryColors::of(SpanCategory::Retrieval));
    const auto frame = gantt->timeFrame();
    const double whiskerMid = WorkflowGanttCoordinates::xOf(frame, analysis.schedule->graph().end(account) + 75'000'000);
    QCOMPARE(image.pixelColor(QPoint(int(whiskerMid), int(accountBar.center().y()))), SpanCategoryColors::slack());
}

void tst_WorkflowPanel::newStoreClears()
{
    Fixture fixture;
    fixture.state.setStore(std::make_shared<TraceStore>());
    QCOMPARE(fixture.panel.workflow(), -1);
    QCOMPARE(fixture.panel.title()->text(), QStringLiteral("No workflow selected"));
    QCOMPARE(fixture.panel.pathModel()->rowCount(), 0);
    QVERIFY(fixture.panel.gantt()->rows().empty());
}

QTEST_MAIN(tst_WorkflowPanel)
#include "tst_workflowpanel.moc"
