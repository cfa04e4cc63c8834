// The Workflow dock as a user meets it on agent traces: orphan spans flagged
// where they are drawn, what-ifs that explain themselves.

#include "MainWindow.h"
#include "RejectedRecordsPanel.h"
#include "SpanCategoryColors.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowGantt.h"
#include "WorkflowPanel.h"
#include "WorkflowPathModel.h"
#include "store/TraceStore.h"

#include <QComboBox>
#include <QDockWidget>
#include <QHelpEvent>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

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
    template<typename Change>
    void whatIf(Change change)
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
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("workflowLegend"))->text().contains(QStringLiteral("parent not in trace")));

    // Hovering a flagged row says where it was attached.
    const qint32 tool = spanNamed(panel->analysis(), QStringLiteral("execute_tool write_file"));
    const QRectF bar = gantt->barRect(tool);
    const QPoint at(int(bar.center().x()), int(bar.center().y()));
    QHelpEvent hover(QEvent::ToolTip, at, gantt->mapToGlobal(at));
    QCoreApplication::sendEvent(gantt, &hover);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(
                 QStringLiteral("\u25c6 parent not in trace, attached to 'invoke_agent [any_agent]' (the span enclosing it)")),
             qPrintable(QToolTip::text()));
    QToolTip::hideText();

    // The Rejected / Notices dock lists one notice per adopted span and the summary.
    QVERIFY(w.window.showPanel(QStringLiteral("rejectedDock")));
    RejectedRecordsPanel *rejected = w.window.rejectedRecords();
    QCOMPARE(rejected->summary()->text(), QStringLiteral("0 records rejected \u00b7 7 notices below"));
    QListWidget *notices = rejected->notices();
    QVERIFY(notices->isVisible());
    QCOMPARE(notices->count(), 7);
    QCOMPARE(notices->item(3)->text(),
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
    QVERIFY2(result.contains(QStringLiteral("<b>TTFT</b> not recorded in this workflow (no model call has a token time)")),
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
        QVERIFY2(result.contains(QStringLiteral("'account retrieval' now waits for 'policy retrieval'")), qPrintable(result));
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

QTEST_MAIN(tst_WorkflowTail)
#include "tst_workflowtail.moc"
