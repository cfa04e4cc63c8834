// The Workflow and Exceedance docks as a user meets them on agent traces:
// orphan spans flagged where they are drawn, what-ifs that explain
// themselves, the slow workflows' excess split over their critical paths,
// a picker that steps through them, unusual spans marked, and a what-if
// judged on the whole scope.

#include "ExceedancePanel.h"
#include "MainWindow.h"
#include "PathAttributionModel.h"
#include "PathAttributionView.h"
#include "PathTreeView.h"
#include "RejectedRecordsPanel.h"
#include "SetComparisonView.h"
#include "SpanCategoryColors.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowGantt.h"
#include "WorkflowListModel.h"
#include "WorkflowPanel.h"
#include "WorkflowPathModel.h"
#include "WorkflowPicker.h"
#include "store/TraceStore.h"
#include "support/WorkflowPopulation.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QTabWidget>
#include <QTableView>

#include <QComboBox>
#include <QDockWidget>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <QToolTip>
#include <cmath>

namespace {

QString realData(const QString &name)
{
    return QStringLiteral(TRACELANE_REALDATA_DIR "/") + name;
}

QString adviserPath()
{
    return QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json");
}

bool openAndSettle(MainWindow &window, const QString &path)
{
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    if (finished.isEmpty() && !finished.wait(30'000))
        return false;
    if (!QTest::qWaitFor([&window] { return !window.isBusy(); }, 30'000))
        return false;
    return finished.at(0).at(0).toBool();
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

// Picks `text` in a combo box the way a user does: open it, type, Enter.
void choose(QComboBox *combo, const QString &text)
{
    combo->setFocus();
    const int index = combo->findText(text);
    QVERIFY2(index >= 0, qPrintable(text));
    // Arrow keys walk the list and emit the user signals (activated, index changed).
    while (combo->currentIndex() < index)
        QTest::keyClick(combo, Qt::Key_Down);
    while (combo->currentIndex() > index)
        QTest::keyClick(combo, Qt::Key_Up);
    QCOMPARE(combo->currentText(), text);
}

// An agent: retrieval, a model call, a tool, a second model call, in
// sequence with 2 ms of the agent's own time before each (E2E 910 ms + tool).
std::vector<PopulationSpan> agentWorkflow(int index, double toolMs)
{
    std::vector<PopulationSpan> spans;
    double t = 2.0;
    const auto step = [&](const std::string &id, const std::string &name, const std::string &operation, double ms) {
        spans.push_back({id, "agent", name, operation, "svc", t, t + ms});
        t += ms + 2.0;
    };
    step("retrieve", "retrieve documents", "retrieval", 100.0);
    step("plan", "chat plan", "chat", 300.0);
    step("tool", "lookup_order " + std::to_string(1000 + index), "execute_tool", toolMs);
    step("answer", "chat answer", "chat", 500.0);
    spans.insert(spans.begin(), {"agent", "", "invoke_agent support", "invoke_agent", "agent", 0.0, t});
    return spans;
}

// Chooses the Exceedance dock's metric as a user does and waits for the
// critical-path attribution.
bool exceedOn(MainWindow &window, const QString &metric)
{
    ExceedancePanel *panel = window.exceedance();
    auto *box = panel->findChild<QComboBox *>(QStringLiteral("exceedanceMetric"));
    // Span traces open on E2E: choosing the metric already shown changes nothing.
    if (box->currentText() == metric && panel->pathAttribution())
        return QTest::qWaitFor([&window] { return !window.isBusy(); }, 30'000);
    QSignalSpy ready(panel, &ExceedancePanel::pathAttributionReady);
    choose(box, metric);
    if (ready.isEmpty() && !ready.wait(30'000))
        return false;
    return QTest::qWaitFor([&window] { return !window.isBusy(); }, 30'000);
}

// For looking at what a test drove: TRACELANE_TEST_SHOTS=DIR saves the window.
void saveShot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("TRACELANE_TEST_SHOTS");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

struct Window
{
    MainWindow window;

    explicit Window(const QString &path)
    {
        window.setPersistent(false);
        window.resize(1600, 1000);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window) || !openAndSettle(window, path))
            qFatal("cannot open %s", qPrintable(path));
        window.showPanel(QStringLiteral("workflowDock"));
        QCoreApplication::processEvents();
    }

    WorkflowPanel *panel() const { return window.workflowPanel(); }

    // Waits until the what-if (or its absence) is shown after `change`.
    template<typename Change> void whatIf(Change change)
    {
        QSignalSpy shown(panel(), &WorkflowPanel::whatIfShown);
        change();
        if (shown.isEmpty())
            QVERIFY(shown.wait(10'000));
    }
};

} // namespace

class tst_WorkflowTail : public QObject
{
    Q_OBJECT
private slots:
    void orphansAreFlaggedWhereTheyAreDrawn();
    void whatIfWithoutTokenTimesSaysSo();
    void dependencyWhatIfOpensOnAPairThatApplies();
    void exceedanceDockSplitsTheSlowWorkflowsOverTheirPaths();
    void mergedPathsDrawnSideBySide();
    void pickerListsAndStepsThroughTheSlowOnes();
    void unusualSpansAreMarked();
    void populationWhatIfOverTheScope();
};

void tst_WorkflowTail::orphansAreFlaggedWhereTheyAreDrawn()
{
    Window w(realData(QStringLiteral("any-agent/GOOGLE_trace.json")));
    WorkflowPanel *panel = w.panel();
    QVERIFY(panel->analysis().ok());
    WorkflowGantt *gantt = panel->gantt();
    QCOMPARE(gantt->rows().size(), size_t(7));

    // The path runs model call -> tool -> model call ... under the agent.
    QStringList kinds;
    for (int row = 0; row < panel->pathModel()->rowCount(); ++row)
        kinds << panel->pathModel()->index(row, WorkflowPathModel::KindColumn).data().toString();
    QCOMPARE(kinds.join(QLatin1Char(' ')),
             QStringLiteral("invoke_agent call_llm invoke_agent execute_tool invoke_agent call_llm invoke_agent "
                            "execute_tool invoke_agent call_llm invoke_agent execute_tool invoke_agent"));

    // Each adopted span carries the marker on its row; the agent does not.
    const qint32 agent = spanNamed(panel->analysis(), QStringLiteral("invoke_agent [any_agent]"));
    QVERIFY(gantt->orphanMarkerRect(agent).isEmpty());
    const QImage image = gantt->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    int marked = 0;
    for (const GanttRow &row : gantt->rows()) {
        if (row.span == agent)
            continue;
        const QRectF marker = gantt->orphanMarkerRect(row.span);
        QVERIFY(!marker.isEmpty());
        const QPoint centre = (marker.center() * dpr).toPoint();
        QCOMPARE(image.pixelColor(centre), SpanCategoryColors::orphan());
        ++marked;
    }
    QCOMPARE(marked, 6);
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("workflowLegend"))
                ->text()
                .contains(QStringLiteral("parent not in trace")));

    // Hovering a flagged row says where it was attached.
    const qint32 tool = spanNamed(panel->analysis(), QStringLiteral("execute_tool write_file"));
    const QRectF bar = gantt->barRect(tool);
    const QPoint at(int(bar.center().x()), int(bar.center().y()));
    QHelpEvent hover(QEvent::ToolTip, at, gantt->mapToGlobal(at));
    QCoreApplication::sendEvent(gantt, &hover);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral(
                 "\u25c6 parent not in trace, attached to 'invoke_agent [any_agent]' (the span enclosing it)")),
             qPrintable(QToolTip::text()));
    QToolTip::hideText();

    // The Rejected / Notices dock lists one notice per adopted span and the summary.
    QVERIFY(w.window.showPanel(QStringLiteral("rejectedDock")));
    RejectedRecordsPanel *rejected = w.window.rejectedRecords();
    QCOMPARE(rejected->summary()->text(), QStringLiteral("0 records rejected \u00b7 7 notices below"));
    QListWidget *notices = rejected->notices();
    QVERIFY(notices->isVisible());
    QCOMPARE(notices->count(), 7);
    QCOMPARE(
        notices->item(3)->text(),
        QStringLiteral("GOOGLE_trace.json: span 65fd4833c24a2fc0 'execute_tool write_file': parent 8dd96ab130d73628 "
                       "not in trace, attached to 773076b4028f3d19 'invoke_agent [any_agent]', the span enclosing it"));
    QCOMPARE(w.window.findChild<QDockWidget *>(QStringLiteral("rejectedDock"))->windowTitle(),
             QStringLiteral("Rejected / Notices"));
}

void tst_WorkflowTail::whatIfWithoutTokenTimesSaysSo()
{
    Window w(realData(QStringLiteral("any-agent/GOOGLE_trace.json")));
    WhatIfPanel *whatIf = w.panel()->whatIfPanel();
    auto *change = whatIf->findChild<QComboBox *>(QStringLiteral("whatIfChange"));
    auto *target = whatIf->findChild<QComboBox *>(QStringLiteral("whatIfTarget"));
    w.whatIf([&] { choose(change, QStringLiteral("Scale a kind")); });
    w.whatIf([&] { choose(target, QStringLiteral("execute_tool")); });
    const QString result = whatIf->findChild<QLabel *>(QStringLiteral("whatIfResult"))->text();
    QVERIFY2(
        result.contains(QStringLiteral("<b>TTFT</b> not recorded in this workflow (no model call has a token time)")),
        qPrintable(result));
    QVERIFY2(!result.contains(QStringLiteral("n/a")), qPrintable(result));
    // Three tools of 3.64 + 1.86 + 2.91 ms at x0.75 save a quarter of 8.41 ms.
    QVERIFY2(result.contains(QStringLiteral("E2E</b> 1591.42 → 1589.32 ms (saves 2.10 ms)")), qPrintable(result));
}

void tst_WorkflowTail::dependencyWhatIfOpensOnAPairThatApplies()
{
    {
        // The adviser: the two retrievals run in parallel; making account
        // retrieval wait for policy retrieval costs the product's 280 ms.
        Window w(adviserPath());
        WhatIfPanel *whatIf = w.panel()->whatIfPanel();
        auto *change = whatIf->findChild<QComboBox *>(QStringLiteral("whatIfChange"));
        w.whatIf([&] { choose(change, QStringLiteral("Make a span wait for another")); });
        QCOMPARE(whatIf->findChild<QComboBox *>(QStringLiteral("whatIfTarget"))->currentText(),
                 QStringLiteral("account retrieval"));
        QCOMPARE(whatIf->findChild<QComboBox *>(QStringLiteral("whatIfFrom"))->currentText(),
                 QStringLiteral("policy retrieval"));
        const QString result = whatIf->findChild<QLabel *>(QStringLiteral("whatIfResult"))->text();
        QVERIFY2(result.contains(QStringLiteral("'account retrieval' now waits for 'policy retrieval'")),
                 qPrintable(result));
        QVERIFY2(result.contains(QStringLiteral("E2E</b> 5986.00 → 6266.00 ms (costs 280.00 ms)")), qPrintable(result));
        // "Waits for" never offers the target's own ancestors or descendants.
        auto *from = whatIf->findChild<QComboBox *>(QStringLiteral("whatIfFrom"));
        QCOMPARE(from->findText(QStringLiteral("governed adviser response")), -1);
        QCOMPARE(from->findText(QStringLiteral("account retrieval")), -1);
    }
    {
        // Any-agent: one chain under the agent, nothing in parallel. The last
        // tool waits for the model call before it: a valid edit, no error,
        // no raw span ids.
        Window w(realData(QStringLiteral("any-agent/GOOGLE_trace.json")));
        WhatIfPanel *whatIf = w.panel()->whatIfPanel();
        auto *change = whatIf->findChild<QComboBox *>(QStringLiteral("whatIfChange"));
        w.whatIf([&] { choose(change, QStringLiteral("Make a span wait for another")); });
        QCOMPARE(whatIf->findChild<QComboBox *>(QStringLiteral("whatIfTarget"))->currentText(),
                 QStringLiteral("execute_tool final_output"));
        QCOMPARE(whatIf->findChild<QComboBox *>(QStringLiteral("whatIfFrom"))->currentText(),
                 QStringLiteral("call_llm mistral/mistral-small-latest"));
        const QString result = whatIf->findChild<QLabel *>(QStringLiteral("whatIfResult"))->text();
        QVERIFY2(result.contains(QStringLiteral("E2E</b> 1591.42 → 1591.42 ms (saves 0.00 ms)")), qPrintable(result));
        QVERIFY2(!result.contains(QStringLiteral("Cannot")) && !result.contains(QStringLiteral("6fa6b13adfb42a2e")),
                 qPrintable(result));
    }
}

void tst_WorkflowTail::exceedanceDockSplitsTheSlowWorkflowsOverTheirPaths()
{
    Window w(realData(QStringLiteral("otel-tui/test_data.json")));
    QVERIFY(w.window.showPanel(QStringLiteral("exceedanceDock")));
    QVERIFY(exceedOn(w.window, QStringLiteral("E2E")));
    SetComparisonView *comparison = w.window.exceedance()->comparison();
    QTabWidget *tabs = comparison->tabs();
    // A span tree has no request phases: the critical-path attribution takes
    // the phase attribution's place, in front.
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Critical-path attribution"));
    for (int tab = 0; tab < tabs->count(); ++tab) {
        if (tabs->tabText(tab) == QStringLiteral("Phase attribution"))
            QVERIFY(!tabs->isTabVisible(tab));
    }
    PathAttributionView *view = comparison->pathAttribution();
    PathAttributionModel *model = view->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    using C = PathAttributionModel::Column;
    QVERIFY2(view->excessLabel()->text().contains(QStringLiteral("= <b>19,049.8 ms</b>")),
             qPrintable(view->excessLabel()->text()));

    // Group by service, as a user picks it: flagd carries 87% of the excess.
    {
        QSignalSpy ready(w.window.exceedance(), &ExceedancePanel::pathAttributionReady);
        choose(view->keyBox(), QStringLiteral("service"));
        QVERIFY(ready.wait(30'000));
    }
    QCOMPARE(model->index(0, C::Key).data().toString(), QStringLiteral("flagd"));
    QCOMPARE(model->index(0, C::Difference).data().toString(), QStringLiteral("16,586.5 ms"));
    QCOMPARE(model->index(0, C::OfTotal).data().toString(), QStringLiteral("87.1%"));
    QCOMPARE(model->index(0, C::SetOnPath).data().toString(), QStringLiteral("42.9%"));
    QCOMPARE(model->index(0, C::RestOnPath).data().toString(), QStringLiteral("3.7%"));
    QCOMPARE(model->index(0, C::Key).data(Qt::FontRole).value<QFont>().bold(), true);
    QCOMPARE(model->index(model->outsideRow(), C::Key).data().toString(), QStringLiteral("outside the span tree"));
    QCOMPARE(model->index(model->outsideRow(), C::Difference).data(PathAttributionModel::SortRole).toDouble(), 0.0);
    double sum = 0.0;
    for (int row = 0; row <= model->outsideRow(); ++row)
        sum += model->index(row, C::Difference).data(PathAttributionModel::SortRole).toDouble();
    const double total = model->index(model->totalRow(), C::Difference).data(PathAttributionModel::SortRole).toDouble();
    QVERIFY(std::abs(sum - total) < 1e-9);
    QVERIFY2(view->suspectLabel()->text().startsWith(QStringLiteral("<b>Suspect: flagd</b> (16,586.5 ms of the "
                                                                    "19,049.8 ms excess")),
             qPrintable(view->suspectLabel()->text()));
    QVERIFY(view->suspectLabel()->text().contains(QStringLiteral("Next test:")));
    saveShot(&w.window, QStringLiteral("exceedance-paths"));
}

void tst_WorkflowTail::mergedPathsDrawnSideBySide()
{
    Window w(realData(QStringLiteral("otel-tui/test_data.json")));
    QVERIFY(w.window.showPanel(QStringLiteral("exceedanceDock")));
    QVERIFY(exceedOn(w.window, QStringLiteral("E2E")));
    SetComparisonView *comparison = w.window.exceedance()->comparison();
    comparison->tabs()->setCurrentWidget(comparison->pathTree());
    PathTreeView *tree = comparison->pathTree();
    tree->resize(900, 400);
    QCOMPARE(tree->tree().setN(), 7);
    QCOMPARE(tree->tree().restN(), 134);
    // The roots, by kind: every demo span is "other"; its subtree holds the
    // whole mean path of each group.
    const auto &nodes = tree->tree().nodes();
    QCOMPARE(nodes.front().key, QStringLiteral("other"));
    QCOMPARE(qRound64(nodes.front().setMeanMs * 10), 190661LL);
    QCOMPARE(qRound64(nodes.front().restMeanMs * 10), 163LL);
    const QRectF set = tree->setBar(0);
    const QRectF rest = tree->restBar(0);
    QVERIFY(set.width() > 100.0);
    QVERIFY(rest.width() < set.width() / 100.0 + 1.0);
    QCOMPARE(set.left(), rest.left());
    saveShot(&w.window, QStringLiteral("merged-paths"));
    const QImage image = tree->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    QCOMPARE(image.pixelColor((set.center() * dpr).toPoint()), PathTreeView::setColour());
    // Folding the root hides the rest of the tree.
    const int rows = int(tree->rows().size());
    QVERIFY(rows > 1);
    QTest::mouseClick(tree, Qt::LeftButton, {}, QPoint(4 + 6, int(set.center().y())));
    QCOMPARE(tree->rows().size(),
             size_t(1) + size_t(std::count_if(nodes.begin(), nodes.end(), [](const PathTreeNode &n) {
                 return n.depth == 0;
             })) - 1);
    QVERIFY2(tree->toolTipText(0).contains(QStringLiteral("on the path in 100.0% of 7")),
             qPrintable(tree->toolTipText(0)));
}

void tst_WorkflowTail::pickerListsAndStepsThroughTheSlowOnes()
{
    Window w(realData(QStringLiteral("otel-tui/test_data.json")));
    QVERIFY(exceedOn(w.window, QStringLiteral("E2E")));
    QVERIFY(w.window.showPanel(QStringLiteral("workflowDock")));
    WorkflowPanel *panel = w.panel();
    WorkflowPicker *picker = panel->picker();
    WorkflowListModel *model = picker->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 141);
    // Slowest E2E first; the seven slow ones on top, marked.
    QCOMPARE(model->index(0, WorkflowListModel::Workflow).data().toString(),
             QStringLiteral("8f2e9d887dc12a3a28a26c47945d52fb"));
    QCOMPARE(model->index(0, WorkflowListModel::E2e).data().toString(), QStringLiteral("48,510.4"));
    int slow = 0;
    for (int row = 0; row < model->rowCount(); ++row)
        slow += model->index(row, WorkflowListModel::Slow).data().toString() == QStringLiteral("\u25b2") ? 1 : 0;
    QCOMPARE(slow, 7);
    for (int row = 0; row < 7; ++row)
        QVERIFY(model->isSlow(row));
    QVERIFY2(picker->summary()->text().startsWith(QStringLiteral("141 workflows in the scope; \u25b2 7 slow")),
             qPrintable(picker->summary()->text()));
    // The shown workflow is selected: the representative slow one, which
    // passes over the slowest few when they are long-lived streams.
    const int shown = picker->view()->currentIndex().row();
    QCOMPARE(model->workflowAt(shown), panel->workflow());
    QVERIFY(shown >= 0 && shown + 1 < 7);

    // N (focus in the dock) steps to the next slow workflow in the list's order.
    picker->view()->setFocus();
    const qint32 next = model->workflowAt(shown + 1);
    QTest::keyClick(picker->view(), Qt::Key_N);
    QTRY_COMPARE(panel->workflow(), next);
    QTRY_VERIFY(!panel->isBusy());
    QCOMPARE(w.window.viewState()->exceedanceCursor(), model->requestRowAt(shown + 1));
    saveShot(&w.window, QStringLiteral("picker"));
    QTest::keyClick(picker->view(), Qt::Key_P);
    QTRY_COMPARE(panel->workflow(), model->workflowAt(shown));

    // Sorted by TTFT instead (none has one here: order kept, missing last),
    // then a click on a row shows that workflow.
    QTest::mouseClick(
        picker->view()->horizontalHeader()->viewport(), Qt::LeftButton, {},
        QPoint(picker->view()->horizontalHeader()->sectionViewportPosition(WorkflowListModel::Spans) + 5, 5));
    QCOMPARE(model->sortColumn(), int(WorkflowListModel::Spans));
    QVERIFY(model->index(0, WorkflowListModel::Spans).data(WorkflowListModel::SortRole).toInt()
            <= model->index(140, WorkflowListModel::Spans).data(WorkflowListModel::SortRole).toInt());
    const QRect cell = picker->view()->visualRect(model->index(3, WorkflowListModel::Workflow));
    QTest::mouseClick(picker->view()->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_COMPARE(panel->workflow(), model->workflowAt(3));
    QCOMPARE(w.window.viewState()->currentRow(), model->requestRowAt(3));
}

void tst_WorkflowTail::unusualSpansAreMarked()
{
    // 40 workflows whose tool takes 100 + i ms; the shown one's tool takes
    // 900 ms: slower than every tool call of the rest.
    WorkflowPopulation population;
    for (int i = 0; i < 40; ++i)
        population.add(agentWorkflow(i, i == 17 ? 900.0 : 100.0 + i), i * 10'000.0);
    ViewState state;
    WorkflowPanel panel(&state);
    panel.resize(1400, 500);
    panel.show();
    QSignalSpy shown(&panel, &WorkflowPanel::unusualSpansShown);
    state.setStore(population.store());
    QTRY_VERIFY(!shown.isEmpty());
    QTRY_VERIFY(!panel.isBusy());
    QCOMPARE(panel.workflow(), 17); // the slowest is shown first
    const qint32 tool = spanNamed(panel.analysis(), QStringLiteral("lookup_order 1017"));
    const qint32 answer = spanNamed(panel.analysis(), QStringLiteral("chat answer"));
    QVERIFY(panel.gantt()->isMarkedUnusual(tool));
    QVERIFY(!panel.gantt()->isMarkedUnusual(answer)); // 500 ms like every other: p50
    QCOMPARE(panel.unusualSpans().rank[size_t(tool)], 100.0);
    QCOMPARE(panel.unusualSpans().rank[size_t(answer)], 50.0);
    QCOMPARE(panel.unusualSpans().restSamples[size_t(tool)], 39); // "lookup_order {n}" in the 39 others
    QVERIFY2(panel.gantt()->toolTipText(tool).contains(
                 QStringLiteral("<b>unusual:</b> duration at p100.0 among 39 spans of their name in the rest")),
             qPrintable(panel.gantt()->toolTipText(tool)));
    saveShot(&panel, QStringLiteral("unusual"));
    const QImage image = panel.gantt()->grab().toImage();
    const QRectF bar = panel.gantt()->barRect(tool).adjusted(-1, -1, 1, 1);
    QCOMPARE(image.pixelColor(QPoint(int(bar.left()), int(bar.center().y())) * image.devicePixelRatio()),
             WorkflowGantt::unusualColour());
    // Unticked, nothing is marked; a lower bar marks more.
    panel.unusualBox()->click();
    QVERIFY(!panel.gantt()->isMarkedUnusual(tool));
    panel.unusualBox()->click();
    panel.unusualPercentileBox()->setValue(50.0);
    QVERIFY(panel.gantt()->isMarkedUnusual(answer));
}

void tst_WorkflowTail::populationWhatIfOverTheScope()
{
    // 20 workflows whose tool takes 100 ms x (i + 1): E2E = 910 ms + tool.
    // Halving every tool: p95 E2E 2,815 -> 1,862.5 ms (seed interpolation).
    WorkflowPopulation population;
    for (int i = 0; i < 20; ++i)
        population.add(agentWorkflow(i, 100.0 * (i + 1)), i * 10'000.0);
    ViewState state;
    WorkflowPanel panel(&state);
    panel.resize(1400, 600);
    panel.show();
    QSignalSpy analysed(&panel, &WorkflowPanel::analysisShown);
    state.setStore(population.store());
    QTRY_VERIFY(!analysed.isEmpty());
    QTRY_VERIFY(!panel.isBusy());
    WhatIfPanel *whatIf = panel.whatIfPanel();
    auto *scope = whatIf->findChild<QCheckBox *>(QStringLiteral("whatIfWholeScope"));
    QSignalSpy populationShown(&panel, &WorkflowPanel::populationShown);
    choose(whatIf->findChild<QComboBox *>(QStringLiteral("whatIfChange")), QStringLiteral("Scale a kind"));
    choose(whatIf->findChild<QComboBox *>(QStringLiteral("whatIfTarget")), QStringLiteral("execute_tool"));
    whatIf->findChild<QLineEdit *>(QStringLiteral("whatIfFactor"))->setText(QStringLiteral("0.5"));
    scope->click();
    QTRY_VERIFY(!populationShown.isEmpty());
    QTRY_VERIFY(!panel.isBusy());
    const QString text = whatIf->populationLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("Across the 20 workflows of the scope (20 changed by the what-if):")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("<b>p95 E2E</b> 2,815.00 \u2192 1,862.50 ms (saves 952.50 ms)")),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("<b>p95 TTFT</b> not recorded in these workflows")));
    saveShot(&panel, QStringLiteral("population"));
    // The saving is offered to the Compare dock as a prediction at its percentile.
    QVERIFY(whatIf->predictButton()->isEnabled());
    QSignalSpy offered(whatIf, &WhatIfPanel::predictionOffered);
    whatIf->predictButton()->click();
    QCOMPARE(offered.size(), 1);
    QCOMPARE(offered.first().at(0).toDouble(), 0.95);
    QCOMPARE(offered.first().at(1).toDouble(), 952.5);
    QVERIFY(std::isnan(offered.first().at(2).toDouble()));

    // A narrower scope (the first ten workflows) and p50: 1,460 -> 1,185 ms.
    populationShown.clear();
    std::vector<qint32> rows;
    for (qint32 row = 0; row < 10; ++row)
        rows.push_back(row);
    state.setSlice(RowSet::fromRows(rows), QStringLiteral("first ten"));
    whatIf->findChild<QDoubleSpinBox *>(QStringLiteral("whatIfPercentile"))->setValue(50.0);
    QTRY_VERIFY(whatIf->populationLabel()->text().contains(QStringLiteral("Across the 10 workflows")));
    QTRY_VERIFY(!panel.isBusy());
    QVERIFY2(whatIf->populationLabel()->text().contains(
                 QStringLiteral("<b>p50 E2E</b> 1,460.00 \u2192 1,185.00 ms (saves 275.00 ms)")),
             qPrintable(whatIf->populationLabel()->text()));
    QVERIFY(whatIf->predictButton()->isEnabled());
    whatIf->predictButton()->click();
    QCOMPARE(offered.size(), 2);
    QCOMPARE(offered.last().at(0).toDouble(), 0.5);
    QCOMPARE(offered.last().at(1).toDouble(), 275.0);
    // Off: nothing left to offer.
    scope->click();
    QVERIFY(!whatIf->predictButton()->isEnabled());
}

QTEST_MAIN(tst_WorkflowTail)
#include "tst_workflowtail.moc"
