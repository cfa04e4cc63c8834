// The workflow view: Gantt geometry, the critical-path table, the what-if
// panel and the dock that ties them to the view-state, on the bundled
// governed adviser response.

#include "SpanCategoryColors.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkKindColors.h"
#include "WorkflowGantt.h"
#include "WorkflowGanttCoordinates.h"
#include "WorkflowPanel.h"
#include "WorkflowPathModel.h"
#include "WorkflowPicker.h"

#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
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
        panel.resize(1000, 700);
        // A new store shows its slowest workflow (here the only one); the
        // current row then names the same workflow, so nothing is redone.
        // The spy comes first: a quick job can deliver before start() returns.
        QSignalSpy shown(&panel, &WorkflowPanel::analysisShown);
        state.setStore(adviser());
        state.setCurrentRow(0);
        if (shown.isEmpty() && !shown.wait(10'000))
            qFatal("the workflow was not analysed");
    }

    // Runs `change` and waits until its what-if is shown (at once when it
    // is "no change", else when the background job is done).
    template<typename Change> void whatIf(Change change)
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
    void collapseByClickingTheTriangle();
    void criticalPathOnlyCheckBox();
    void pathTableClickSelectsTheSpan();
    void legendNamesTheKindsShown();
    void toolTips_data();
    void toolTips();
    void whatIfRedrawsAtOnce_data();
    void whatIfRedrawsAtOnce();
    void badFactorKeepsTheLastWhatIf();
    void noSignalWhenNothingChanged();
    void pixels();
    void modelCallBarsShowTheirPhases();
    void rulerReadsInTheSpansUnit_data();
    void rulerReadsInTheSpansUnit();
    void dependencyArrowPixels();
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
    const auto [from, to] = WorkflowGanttCoordinates::visibleRows(rows, 95); // 65 px: 3.25 rows
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
    QCOMPARE(model.index(2, 0).data(WorkflowPathModel::SpanRole).toInt(),
             spanNamed(analysis, QStringLiteral("policy retrieval")));
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
    // One workflow reads in the singular (issue 9, 8: "1 lanes", "1 requests").
    QCOMPARE(panel.picker()->summary()->text().section(QLatin1Char(';'), 0, 0),
             QStringLiteral("1 workflow in the scope"));
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
    QCOMPARE(gantt->rows().size(), size_t(9)); // all but account retrieval
    QVERIFY(gantt->barRect(account).isEmpty());
    QVERIFY(!gantt->barRect(policy).isEmpty());
}

void tst_WorkflowPanel::whatIfRedrawsAtOnce_data()
{
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("target");   // span name, or kind for "scale a kind"; empty: the default
    QTest::addColumn<QString>("waitsFor"); // span name for "make a span wait for another"
    QTest::addColumn<QString>("factor");   // as typed
    QTest::addColumn<QString>("result");
    QTest::addColumn<int>("toolRow");       // the tool's row in the new path table
    QTest::addColumn<QString>("toolStart"); // its new start there

    // PRODUCT.md's acceptance figures, chosen in the panel.
    QTest::newRow("first prefill x0.75") << int(WhatIfPanel::Change::ScalePhase) << QString() << QString()
                                         << QStringLiteral("0.75")
                                         << QStringLiteral("E2E</b> 5986.00 → 5914.75 ms (saves 71.25 ms)") << 5
                                         << QStringLiteral("1874.75");
    QTest::newRow("first queue x0.5") << int(WhatIfPanel::Change::ScalePhase) << QStringLiteral("queue") << QString()
                                      << QStringLiteral("-50%")
                                      << QStringLiteral("E2E</b> 5986.00 → 5681.00 ms (saves 305.00 ms)") << 5
                                      << QStringLiteral("1641.00");
    QTest::newRow("final answer 30 tokens shorter")
        << int(WhatIfPanel::Change::ShortenAnswer) << QString() << QString() << QStringLiteral("0.75")
        << QStringLiteral("E2E</b> 5986.00 → 5266.00 ms (saves 720.00 ms)") << 5 << QStringLiteral("1946.00");
    QTest::newRow("every tool x0.5 (a kind)")
        << int(WhatIfPanel::Change::ScaleKind) << QStringLiteral("execute_tool") << QString() << QStringLiteral("0.5")
        << QStringLiteral("E2E</b> 5986.00 → 5606.00 ms (saves 380.00 ms)") << 5 << QStringLiteral("1946.00");
    QTest::newRow("tool -1/3 (a span, typed as 2/3)")
        << int(WhatIfPanel::Change::ScaleSpan) << QStringLiteral("calculation tool") << QString()
        << QStringLiteral("2/3") << QStringLiteral("E2E</b> 5986.00 → 5732.67 ms (saves 253.33 ms)") << 5
        << QStringLiteral("1946.00");
    QTest::newRow("account retrieval x2 (a span, past its slack)")
        << int(WhatIfPanel::Change::ScaleSpan) << QStringLiteral("account retrieval") << QString()
        << QStringLiteral("2") << QStringLiteral("E2E</b> 5986.00 → 6116.00 ms (costs 130.00 ms)") << 5
        << QStringLiteral("2076.00");
    QTest::newRow("account waits for policy")
        << int(WhatIfPanel::Change::AddDependency) << QStringLiteral("account retrieval")
        << QStringLiteral("policy retrieval") << QStringLiteral("0.75")
        << QStringLiteral("E2E</b> 5986.00 → 6266.00 ms (costs 280.00 ms)") << 6 << QStringLiteral("2226.00");
}

void tst_WorkflowPanel::whatIfRedrawsAtOnce()
{
    QFETCH(int, change);
    QFETCH(QString, target);
    QFETCH(QString, waitsFor);
    QFETCH(QString, factor);
    QFETCH(QString, result);
    QFETCH(int, toolRow);
    QFETCH(QString, toolStart);
    Fixture fixture;
    WorkflowPanel &panel = fixture.panel;
    const qint32 tool = spanNamed(panel.analysis(), QStringLiteral("calculation tool"));
    const QRectF before = panel.gantt()->barRect(tool);
    WhatIfPanel *whatIf = panel.whatIfPanel();
    whatIf->setPhase(target == QStringLiteral("queue") ? Phase::Queue : Phase::Prefill);
    whatIf->findChild<QLineEdit *>(QStringLiteral("whatIfFactor"))->setText(factor);
    whatIf->setTokens(30, 24.0);
    auto *targets = whatIf->findChild<QComboBox *>(QStringLiteral("whatIfTarget"));
    auto *from = whatIf->findChild<QComboBox *>(QStringLiteral("whatIfFrom"));
    fixture.whatIf([&] {
        whatIf->setChange(WhatIfPanel::Change(change));
        if (change == int(WhatIfPanel::Change::ScaleKind))
            targets->setCurrentIndex(targets->findData(target));
        else if (change != int(WhatIfPanel::Change::ScalePhase) && !target.isEmpty())
            whatIf->setTargetSpan(spanNamed(panel.analysis(), target));
        if (!waitsFor.isEmpty())
            from->setCurrentIndex(from->findData(spanNamed(panel.analysis(), waitsFor)));
    });
    const auto *label = panel.findChild<QLabel *>(QStringLiteral("whatIfResult"));
    QVERIFY2(label->text().contains(result), qPrintable(label->text()));
    // The new path and the Gantt follow at once.
    QCOMPARE(panel.pathModel()->index(toolRow, WorkflowPathModel::SpanColumn).data().toString(),
             QStringLiteral("calculation tool"));
    QCOMPARE(panel.pathModel()->index(toolRow, WorkflowPathModel::StartColumn).data().toString(), toolStart);
    const QRectF after = panel.gantt()->barRect(tool);
    const auto frame = panel.gantt()->timeFrame();
    QCOMPARE(qRound(double(WorkflowGanttCoordinates::timeAt(frame, after.left()) - frame.start) / 1e6),
             qRound(toolStart.toDouble()));
    QCOMPARE(after.left() == before.left(), toolStart == QStringLiteral("1946.00"));

    // Back to no change: the recorded workflow again.
    fixture.whatIf([&] { whatIf->setChange(WhatIfPanel::Change::None); });
    QCOMPARE(panel.gantt()->barRect(tool), before);
    QCOMPARE(panel.pathModel()->index(5, WorkflowPathModel::StartColumn).data().toString(), QStringLiteral("1946.00"));
}

void tst_WorkflowPanel::badFactorKeepsTheLastWhatIf()
{
    Fixture fixture;
    WhatIfPanel *whatIf = fixture.panel.whatIfPanel();
    auto *factor = whatIf->findChild<QLineEdit *>(QStringLiteral("whatIfFactor"));
    const qint32 tool = spanNamed(fixture.panel.analysis(), QStringLiteral("calculation tool"));
    fixture.panel.gantt()->resize(900, 300);
    whatIf->setTargetSpan(tool);
    factor->setText(QStringLiteral("-25%"));
    const QRectF recorded = fixture.panel.gantt()->barRect(tool);
    fixture.whatIf([&] { whatIf->setChange(WhatIfPanel::Change::ScaleSpan); });
    QCOMPARE(whatIf->edits().front().factor, 0.75);
    const QRectF scaled = fixture.panel.gantt()->barRect(tool);
    QVERIFY2(scaled.width() < recorded.width(),
             qPrintable(QStringLiteral("%1 %2").arg(scaled.width()).arg(recorded.width())));
    QSignalSpy changed(whatIf, &WhatIfPanel::editsChanged);
    factor->setText(QStringLiteral("fast"));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(whatIf->findChild<QLabel *>(QStringLiteral("whatIfResult"))->text(),
             QStringLiteral("'fast' is not a factor; use a number ≥ 0 (0.75), a fraction (2/3) or a change in "
                            "per cent (-25%)"));
    QCOMPARE(whatIf->edits().front().factor, 0.75);
    QCOMPARE(fixture.panel.gantt()->barRect(tool), scaled);
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
    fixture.state.setCurrentRow(0); // same workflow: nothing to redo
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
    QCOMPARE(image.pixelColor(toolBar.center().toPoint()), WorkKindColors::of(WorkKind::Tool));
    QCOMPARE(image.pixelColor(QPoint(int(toolBar.center().x()), int(toolBar.bottom()) - 2)),
             SpanCategoryColors::criticalPath());
    // Account retrieval: no band, and a 150 ms slack whisker after its end.
    const QRectF accountBar = gantt->barRect(account);
    QCOMPARE(image.pixelColor(QPoint(int(accountBar.center().x()), int(accountBar.bottom()) - 2)),
             WorkKindColors::of(WorkKind::Retrieval));
    const auto frame = gantt->timeFrame();
    const double whiskerMid
        = WorkflowGanttCoordinates::xOf(frame, analysis.schedule->graph().end(account) + 75'000'000);
    QCOMPARE(image.pixelColor(QPoint(int(whiskerMid), int(accountBar.center().y()))), SpanCategoryColors::slack());
}

void tst_WorkflowPanel::modelCallBarsShowTheirPhases()
{
    // The Gantt colours a model call's bar by its phases, as the lanes do.
    Fixture fixture;
    WorkflowGantt *gantt = fixture.panel.gantt();
    gantt->resize(1200, 300);
    const QImage image = gantt->grab().toImage();
    const auto &analysis = fixture.panel.analysis();
    const auto frame = gantt->timeFrame();
    const auto at = [&](const QString &span, double ms) {
        const QRectF bar = gantt->barRect(spanNamed(analysis, span));
        const double x = WorkflowGanttCoordinates::xOf(frame, analysis.timing.start + qint64(ms * 1e6));
        return image.pixelColor(QPoint(int(x), int(bar.top()) + 3));
    };
    const QString first = QStringLiteral("model call: tool proposal");
    QCOMPARE(at(first, 875.0), WorkKindColors::of(WorkKind::Queue));
    QCOMPARE(at(first, 1320.0), WorkKindColors::of(WorkKind::Prefill));
    QCOMPARE(at(first, 1750.0), WorkKindColors::of(WorkKind::Decode));
    const QString second = QStringLiteral("model call: final answer");
    QCOMPARE(at(second, 3020.0), WorkKindColors::of(WorkKind::ModelCall));
    QCOMPARE(at(second, 4700.0), WorkKindColors::of(WorkKind::Decode));
    QCOMPARE(at(QStringLiteral("governed adviser response"), 3000.0), WorkKindColors::of(WorkKind::Coordination));
}

void tst_WorkflowPanel::rulerReadsInTheSpansUnit_data()
{
    QTest::addColumn<qint64>("lengthMs");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("80 ms") << qint64(80)
                           << QStringList{QStringLiteral("0 ms"), QStringLiteral("20 ms"), QStringLiteral("40 ms"),
                                          QStringLiteral("60 ms"), QStringLiteral("80 ms")};
    QTest::newRow("6 s") << qint64(
        6000) << QStringList{QStringLiteral("0 s"), QStringLiteral("1 s"), QStringLiteral("2 s"), QStringLiteral("3 s"),
                             QStringLiteral("4 s"), QStringLiteral("5 s"), QStringLiteral("6 s")};
    // A 27-minute workflow reads in minutes, not "1e+06 ms".
    QTest::newRow("27 min") << qint64(27 * 60'000) << QStringList{QStringLiteral("0 min"),  QStringLiteral("5 min"),
                                                                  QStringLiteral("10 min"), QStringLiteral("15 min"),
                                                                  QStringLiteral("20 min"), QStringLiteral("25 min")};
}

void tst_WorkflowPanel::rulerReadsInTheSpansUnit()
{
    QFETCH(qint64, lengthMs);
    QFETCH(QStringList, labels);
    auto graph = std::make_shared<SpanGraph>();
    SpanGraph::Span root;
    root.id = "r";
    root.name = QStringLiteral("root");
    root.start = 1'700'000'000'000'000'000LL;
    root.end = root.start + lengthMs * 1'000'000;
    graph->appendSpan(root);
    WorkflowGantt gantt;
    gantt.resize(1000, 200);
    gantt.setAnalysis(WorkflowAnalysis::analyse(graph, QStringLiteral("t")));
    QStringList shown;
    for (const auto &tick : gantt.ticks())
        shown.append(tick.second);
    QVERIFY2(shown == labels, qPrintable(shown.join(QStringLiteral(" | "))));
}

void tst_WorkflowPanel::collapseByClickingTheTriangle()
{
    Fixture fixture;
    fixture.panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fixture.panel));
    WorkflowGantt *gantt = fixture.panel.gantt();
    const qint32 retrieval = spanNamed(fixture.panel.analysis(), QStringLiteral("retrieval"));
    const auto rowOf = [gantt](qint32 span) {
        for (size_t row = 0; row < gantt->rows().size(); ++row) {
            if (gantt->rows()[row].span == span)
                return int(row);
        }
        return -1;
    };
    const int row = rowOf(retrieval);
    QCOMPARE(row, 3);
    QCOMPARE(gantt->rows()[size_t(row)].depth, 1);
    // The triangle sits before the name, indented one level.
    const QPoint triangle(4 + 14 + 6, WorkflowGanttCoordinates::rowTop(gantt->rowFrame(), row) + 10);
    QSignalSpy selected(gantt, &WorkflowGantt::spanSelected);
    QTest::mouseClick(gantt, Qt::LeftButton, {}, triangle);
    QCOMPARE(gantt->rows().size(), size_t(8));
    QVERIFY(!gantt->rows()[size_t(row)].expanded);
    QCOMPARE(selected.count(), 0); // the triangle folds; it does not select
    QTest::mouseClick(gantt, Qt::LeftButton, {}, triangle);
    QCOMPARE(gantt->rows().size(), size_t(10));
    // A click on the name selects the span.
    QTest::mouseClick(gantt, Qt::LeftButton, {}, triangle + QPoint(40, 0));
    QCOMPARE(gantt->selectedSpan(), retrieval);
    QCOMPARE(selected.count(), 1);
}

void tst_WorkflowPanel::criticalPathOnlyCheckBox()
{
    Fixture fixture;
    auto *only = fixture.panel.findChild<QCheckBox *>(QStringLiteral("criticalPathOnly"));
    QVERIFY(only);
    only->setChecked(true);
    QCOMPARE(fixture.panel.gantt()->rows().size(), size_t(9));
    only->setChecked(false);
    QCOMPARE(fixture.panel.gantt()->rows().size(), size_t(10));
}

void tst_WorkflowPanel::pathTableClickSelectsTheSpan()
{
    Fixture fixture;
    fixture.panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fixture.panel));
    auto *table = fixture.panel.findChild<QTableView *>(QStringLiteral("criticalPathTable"));
    QVERIFY(table);
    const QModelIndex tool = table->model()->index(5, WorkflowPathModel::SpanColumn);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(tool).center());
    QCOMPARE(fixture.panel.gantt()->selectedSpan(),
             spanNamed(fixture.panel.analysis(), QStringLiteral("calculation tool")));
    // ... and the what-if's target.
    fixture.panel.whatIfPanel()->setChange(WhatIfPanel::Change::ScaleSpan);
    QCOMPARE(fixture.panel.whatIfPanel()->edits().front().target.text, QStringLiteral("0000000000ad0009"));
}

void tst_WorkflowPanel::legendNamesTheKindsShown()
{
    Fixture fixture;
    const QString legend = fixture.panel.findChild<QLabel *>(QStringLiteral("workflowLegend"))->text();
    QCOMPARE(legend, WorkflowPanel::legendHtml(fixture.panel.analysis().schedule.get()));
    // The kinds the bars show, the lanes' colours: the first model call's
    // four phases, the second's plain model time and decode.
    for (const WorkKind present : {WorkKind::Coordination, WorkKind::Queue, WorkKind::Prefill, WorkKind::FirstToken,
                                   WorkKind::Decode, WorkKind::ModelCall, WorkKind::Tool, WorkKind::Retrieval,
                                   WorkKind::Network, WorkKind::Gateway, WorkKind::Preparation}) {
        QVERIFY2(legend.contains(QStringLiteral("color:%1; font-size:large'>\u25a0</span>&nbsp;%2")
                                     .arg(WorkKindColors::of(present).name(), workKindLabel(present).toHtmlEscaped())),
                 qPrintable(workKindLabel(present)));
    }
    QCOMPARE(legend.count(QStringLiteral("\u25a0")), 11);
    QVERIFY(!legend.contains(workKindLabel(WorkKind::Embeddings)));
    QVERIFY(!legend.contains(workKindLabel(WorkKind::Other)));
    for (const char *mark : {"critical path", "slack", "dependency"})
        QVERIFY2(legend.contains(QString::fromLatin1(mark)), mark);
    QCOMPARE(WorkflowPanel::legendHtml(nullptr).count(QStringLiteral("\u25a0")), 0);
}

void tst_WorkflowPanel::toolTips_data()
{
    QTest::addColumn<QString>("span");
    QTest::addColumn<QStringList>("lines");
    QTest::newRow("model call: phases, tokens, attributes")
        << QStringLiteral("model call: tool proposal")
        << QStringList{QStringLiteral("<b>model call: tool proposal</b>"),
                       QStringLiteral("kind: chat (Model call)"),
                       QStringLiteral("570.00 – 1946.00 ms (1376.00 ms)"),
                       QStringLiteral("critical: no slack"),
                       QStringLiteral("tokens: 1200 in, 19 out"),
                       QStringLiteral("Queue: 610.00 ms"),
                       QStringLiteral("Prefill: 285.00 ms"),
                       QStringLiteral("Stream: 396.00 ms"),
                       QStringLiteral("id: 0000000000ad0008"),
                       QStringLiteral("gen_ai.request.model = adviser-model")};
    QTest::newRow("parallel branch with slack")
        << QStringLiteral("account retrieval")
        << QStringList{QStringLiteral("kind: retrieval (Retrieval)"), QStringLiteral("115.00 – 395.00 ms (280.00 ms)"),
                       QStringLiteral("slack 150.00 ms"), QStringLiteral("gen_ai.data_source.id = account-store")};
    QTest::newRow("tool") << QStringLiteral("calculation tool")
                          << QStringList{QStringLiteral("kind: execute_tool (Tool)"),
                                         QStringLiteral("1946.00 – 2706.00 ms (760.00 ms)"),
                                         QStringLiteral("gen_ai.tool.name = calculate")};
}

void tst_WorkflowPanel::toolTips()
{
    QFETCH(QString, span);
    QFETCH(QStringList, lines);
    Fixture fixture;
    const QStringList shown
        = fixture.panel.gantt()->toolTipText(spanNamed(fixture.panel.analysis(), span)).split(QStringLiteral("<br>"));
    for (const QString &line : lines)
        QVERIFY2(shown.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + shown.join(QLatin1Char('\n'))));
    QCOMPARE(fixture.panel.gantt()->toolTipText(-1), QString());
}

void tst_WorkflowPanel::dependencyArrowPixels()
{
    Fixture fixture;
    WorkflowGantt *gantt = fixture.panel.gantt();
    gantt->resize(900, 300);
    const QImage image = gantt->grab().toImage();
    // The tool waits for the tool proposal: an arrowhead ends at the tool's
    // start, on its row's centre line, in the dependency colour.
    const QRectF tool = gantt->barRect(spanNamed(fixture.panel.analysis(), QStringLiteral("calculation tool")));
    const QPoint inHead(int(std::floor(tool.left())) - 4, int(tool.center().y()));
    QCOMPARE(image.pixelColor(inHead), SpanCategoryColors::dependency());
    // Account retrieval waits for nothing recorded: no arrow ends at it.
    const QRectF account = gantt->barRect(spanNamed(fixture.panel.analysis(), QStringLiteral("account retrieval")));
    QVERIFY(image.pixelColor(QPoint(int(std::floor(account.left())) - 4, int(account.center().y())))
            != SpanCategoryColors::dependency());
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
