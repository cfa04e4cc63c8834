// Work left undone out of sight (InSightWork) and the panels that use it on a
// live refresh: a dock behind another tab or closed keeps its work until it
// is looked at, then shows exactly what a panel rebuilt at once would show.
// A panel in a window that is not shown (every other test) works at once.

#include "ClassTableModel.h"
#include "ClassTablePanel.h"
#include "ComparePanel.h"
#include "ExceedancePanel.h"
#include "InSightWork.h"
#include "LoadPanel.h"
#include "MainWindow.h"
#include "RecordPanel.h"
#include "RequestTablePanel.h"
#include "StreamPanel.h"
#include "ViewState.h"
#include "WorkflowListModel.h"
#include "WorkflowPicker.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

namespace {

std::shared_ptr<const TraceStore> load(const QString &name)
{
    const LoadResult result = TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/classes/") + name, {});
    if (!result.ok())
        qFatal("cannot load %s: %s", qPrintable(name), qPrintable(result.fatalError));
    return result.store;
}

// A shown window with two tabbed docks: `panel` in the first, a plain
// widget in the second (raised to put the panel behind it).
struct TabbedWindow
{
    QMainWindow window;
    QDockWidget *panelDock = nullptr;
    QDockWidget *otherDock = nullptr;

    explicit TabbedWindow(QWidget *panel)
    {
        panelDock = new QDockWidget(QStringLiteral("Panel"), &window);
        panelDock->setObjectName(QStringLiteral("panelDock"));
        panel->setMinimumSize(300, 200); // a plain widget would get no height at all
        panelDock->setWidget(panel);
        otherDock = new QDockWidget(QStringLiteral("Other"), &window);
        otherDock->setObjectName(QStringLiteral("otherDock"));
        otherDock->setWidget(new QLabel(QStringLiteral("other"), otherDock));
        window.setCentralWidget(new QWidget(&window));
        window.addDockWidget(Qt::BottomDockWidgetArea, panelDock);
        window.tabifyDockWidget(panelDock, otherDock);
        window.resize(1400, 900);
        panelDock->raise();
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("window not exposed");
    }
    void putBehind()
    {
        otherDock->raise();
        QCoreApplication::processEvents();
    }
    void bringToFront()
    {
        panelDock->raise();
        QCoreApplication::processEvents();
    }
};

// Every cell of a model, as text: two panels show the same table or not.
QStringList cells(const QAbstractItemModel &model)
{
    QStringList texts;
    for (int row = 0; row < model.rowCount(); ++row)
        for (int column = 0; column < model.columnCount(); ++column)
            texts << model.index(row, column).data().toString();
    return texts;
}

QList<int> columnWidths(const QTableView &view)
{
    QList<int> widths;
    for (int column = 0; column < view.model()->columnCount(); ++column)
        widths << view.columnWidth(column);
    return widths;
}

} // namespace

class tst_InSightWork : public QObject
{
    Q_OBJECT

private slots:
    void workRunsAtOnceInAWindowNotShown()
    {
        QWidget view;
        int done = 0;
        InSightWork work(&view, [&] { ++done; });
        QVERIFY(!InSightWork::isOutOfSight(&view));
        work.run(true);
        QCOMPARE(done, 1);
        QVERIFY(!work.isPending());
    }

    void dockBehindATabCatchesUpWhenRaised()
    {
        auto *view = new QWidget;
        int done = 0;
        auto *work = new InSightWork(view, [&] { ++done; });
        TabbedWindow tabs(view);
        QVERIFY(!InSightWork::isOutOfSight(view));
        work->run(true);
        QCOMPARE(done, 1);

        tabs.putBehind();
        // Qt moves a dock behind a tab out of the window; it stays "visible".
        QVERIFY(view->isVisible());
        QVERIFY(InSightWork::isOutOfSight(view));
        work->run(true);
        work->run(true); // a second refresh meanwhile is the same work
        QCOMPARE(done, 1);
        QVERIFY(work->isPending());
        QTest::qWait(50);
        QCOMPARE(done, 1); // nothing runs it while it stays behind

        // Asked for without waiting (not a refresh): done now, nothing kept.
        work->run(false);
        QCOMPARE(done, 2);
        QVERIFY(!work->isPending());

        work->run(true);
        QVERIFY(work->isPending());
        tabs.bringToFront();
        QTRY_COMPARE(done, 3);
        QVERIFY(!work->isPending());
        QTest::qWait(50);
        QCOMPARE(done, 3); // once, not again
    }

    void closedDockCatchesUpWhenOpened()
    {
        auto *view = new QWidget;
        int done = 0;
        auto *work = new InSightWork(view, [&] { ++done; });
        TabbedWindow tabs(view);
        tabs.otherDock->close(); // the panel's dock alone: shown means in sight
        tabs.panelDock->close();
        QCoreApplication::processEvents();
        QVERIFY(InSightWork::isOutOfSight(view));
        work->run(true);
        QCOMPARE(done, 0);
        work->flush(); // done now, in sight or not
        QCOMPARE(done, 1);
        work->run(true);
        QCOMPARE(done, 1);
        tabs.panelDock->show();
        QTRY_COMPARE(done, 2);
        QVERIFY(!work->isPending());
    }

    // The Classes panel behind a tab skips the live refreshes and shows the
    // newest store's table once raised: the same cells as a panel that
    // computed it at once.
    void classPanelOutOfSightShowsTheNewestStoreOnceRaised()
    {
        ViewState state;
        auto *panel = new ClassTablePanel(&state);
        TabbedWindow tabs(panel);
        {
            QSignalSpy ready(panel, &ClassTablePanel::tableReady);
            state.setStore(load(QStringLiteral("mixture.jsonl")));
            QVERIFY(ready.wait(10'000));
        }
        const QStringList mixture = cells(*panel->model());
        QVERIFY(mixture.size() > 0);

        tabs.putBehind();
        QSignalSpy ready(panel, &ClassTablePanel::tableReady);
        state.refreshStore(load(QStringLiteral("region-tail.jsonl")));
        state.refreshStore(load(QStringLiteral("region-queue.jsonl")));
        QTest::qWait(300);
        QCOMPARE(ready.count(), 0); // no table computed for nobody
        QCOMPARE(panel->model()->rowCount(), 0);
        QVERIFY(!panel->isComputing());

        tabs.bringToFront();
        QVERIFY(ready.wait(10'000));
        ViewState freshState;
        ClassTablePanel fresh(&freshState);
        QSignalSpy freshReady(&fresh, &ClassTablePanel::tableReady);
        freshState.setStore(state.store());
        QVERIFY(freshReady.wait(10'000));
        QVERIFY(cells(*fresh.model()) != mixture);
        QCOMPARE(cells(*panel->model()), cells(*fresh.model()));
        QCOMPARE(ready.count(), 1);
    }

    // A trace opened in place of the live one is never a refresh: the panel
    // behind the tab computes it at once, as before.
    void openingATraceIsNeverLeftForLater()
    {
        ViewState state;
        auto *panel = new ClassTablePanel(&state);
        TabbedWindow tabs(panel);
        tabs.putBehind();
        QSignalSpy ready(panel, &ClassTablePanel::tableReady);
        state.setStore(load(QStringLiteral("mixture.jsonl")));
        QVERIFY(ready.wait(10'000));
        QVERIFY(panel->model()->rowCount() > 0);
    }

    void loadPanelOutOfSightShowsTheNewestStoreOnceRaised()
    {
        ViewState state;
        auto *panel = new LoadPanel(&state);
        TabbedWindow tabs(panel);
        {
            QSignalSpy ready(panel, &LoadPanel::timelineReady);
            state.setStore(load(QStringLiteral("mixture.jsonl")));
            QVERIFY(ready.wait(10'000));
        }
        const std::vector<qint64> mixtureArrivals = panel->timeline().arrivals;

        tabs.putBehind();
        QSignalSpy ready(panel, &LoadPanel::timelineReady);
        state.refreshStore(load(QStringLiteral("region-tail.jsonl")));
        QTest::qWait(300);
        QCOMPARE(ready.count(), 0);
        QCOMPARE(panel->timeline().arrivals, mixtureArrivals); // left as it was, unseen

        tabs.bringToFront();
        QVERIFY(ready.wait(10'000));
        ViewState freshState;
        LoadPanel fresh(&freshState);
        QSignalSpy freshReady(&fresh, &LoadPanel::timelineReady);
        freshState.setStore(state.store());
        QVERIFY(freshReady.wait(10'000));
        QVERIFY(fresh.timeline().arrivals != mixtureArrivals);
        QCOMPARE(panel->timeline().arrivals, fresh.timeline().arrivals);
        QCOMPARE(panel->timeline().startNs, fresh.timeline().startNs);
        QCOMPARE(panel->timeline().binNs, fresh.timeline().binNs);
    }

    // The request table's columns are fitted to the new rows once in sight.
    void requestTableFitsItsColumnsOnceRaised()
    {
        ViewState state;
        auto *panel = new RequestTablePanel(&state);
        TabbedWindow tabs(panel);
        state.setStore(load(QStringLiteral("region-tail.jsonl")));
        QCoreApplication::processEvents();

        tabs.putBehind();
        panel->view()->setColumnWidth(0, 333); // so a fit shows
        state.refreshStore(load(QStringLiteral("region-queue.jsonl")));
        QCOMPARE(panel->view()->columnWidth(0), 333);
        tabs.bringToFront();
        QTRY_VERIFY(panel->view()->columnWidth(0) != 333);

        ViewState freshState;
        RequestTablePanel fresh(&freshState);
        freshState.setStore(state.store());
        QCOMPARE(columnWidths(*panel->view()), columnWidths(*fresh.view()));
    }

    // Behind a tab, the exceedance set stays current (the swimlanes' marks,
    // N / P) while what the panel draws of it waits until it is raised.
    void exceedancePanelKeepsItsSetCurrentAndDrawsItOnceRaised()
    {
        ViewState state;
        auto *panel = new ExceedancePanel(&state);
        TabbedWindow tabs(panel);
        {
            QSignalSpy ready(panel, &ExceedancePanel::analysisReady);
            state.setStore(load(QStringLiteral("mixture.jsonl")));
            QVERIFY(ready.wait(10'000));
        }
        const QString mixtureSummary = panel->summaryLabel()->text();
        QVERIFY(mixtureSummary.contains(QStringLiteral("200 requests")));

        tabs.putBehind();
        QSignalSpy ready(panel, &ExceedancePanel::analysisReady);
        state.refreshStore(load(QStringLiteral("region-tail.jsonl")));
        QVERIFY(ready.wait(10'000));
        ViewState freshState;
        ExceedancePanel fresh(&freshState);
        QSignalSpy freshReady(&fresh, &ExceedancePanel::analysisReady);
        freshState.setStore(state.store());
        QVERIFY(freshReady.wait(10'000));
        QVERIFY(panel->analysis());
        QCOMPARE(panel->analysis()->set.members, fresh.analysis()->set.members);
        QCOMPARE(state.exceedance().members.rows().size(), fresh.analysis()->set.members.size());
        QCOMPARE(panel->summaryLabel()->text(), mixtureSummary); // not drawn for nobody
        panel->stepNext();
        QCOMPARE(panel->position(), 0);
        QCOMPARE(state.exceedanceCursor(), fresh.analysis()->set.members.front());

        tabs.bringToFront();
        QTRY_COMPARE(panel->summaryLabel()->text(), fresh.summaryLabel()->text());
        QVERIFY(fresh.summaryLabel()->text().contains(QStringLiteral("250 requests")));
        QVERIFY2(panel->positionLabel()->text().startsWith(QStringLiteral("1 of ")),
                 qPrintable(panel->positionLabel()->text()));
    }

    // The diagnosis record measures every refresh but shows it once in sight;
    // reading the record (a report, a session) takes the newest measurement.
    void recordPanelShowsTheNewestMeasurementOnceRaisedOrRead()
    {
        ViewState state;
        auto *panel = new RecordPanel(&state);
        TabbedWindow tabs(panel);
        {
            QSignalSpy replaced(panel, &RecordPanel::recordReplaced);
            state.setStore(load(QStringLiteral("mixture.jsonl")));
            QVERIFY(replaced.wait(10'000));
        }
        QCOMPARE(panel->statusLabel()->text(), QStringLiteral("Measured on mixture.jsonl."));

        tabs.putBehind();
        QSignalSpy replaced(panel, &RecordPanel::recordReplaced);
        state.refreshStore(load(QStringLiteral("region-tail.jsonl")));
        QTRY_VERIFY(!panel->isComputing());
        QTest::qWait(50);
        QCOMPARE(replaced.count(), 0);
        QCOMPARE(panel->statusLabel()->text(), QStringLiteral("Measured on mixture.jsonl.")); // unseen
        QCOMPARE(panel->record().measuredOn, QStringLiteral("region-tail.jsonl"));
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(panel->statusLabel()->text(), QStringLiteral("Measured on region-tail.jsonl."));

        // Two refreshes unseen: the second measures on the kept first, draws nothing.
        state.refreshStore(load(QStringLiteral("region-queue.jsonl")));
        QTRY_VERIFY(!panel->isComputing());
        state.refreshStore(load(QStringLiteral("mixture.jsonl")));
        QTRY_VERIFY(!panel->isComputing());
        QTest::qWait(50);
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(panel->statusLabel()->text(), QStringLiteral("Measured on region-tail.jsonl."));
        tabs.bringToFront();
        QTRY_COMPARE(panel->statusLabel()->text(), QStringLiteral("Measured on mixture.jsonl."));
        QCOMPARE(replaced.count(), 2);
        QCOMPARE(panel->record().measuredOn, QStringLiteral("mixture.jsonl"));
    }

    void streamPanelOutOfSightSummarisesTheNewestStoreOnceRaised()
    {
        ViewState state;
        auto *panel = new StreamPanel(&state);
        TabbedWindow tabs(panel);
        {
            QSignalSpy ready(panel, &StreamPanel::summaryReady);
            state.setStore(load(QStringLiteral("mixture.jsonl")));
            QVERIFY(ready.wait(10'000));
        }
        const QString mixtureReport = panel->reportText();
        tabs.putBehind();
        QSignalSpy ready(panel, &StreamPanel::summaryReady);
        state.refreshStore(load(QStringLiteral("region-tail.jsonl")));
        QTest::qWait(300);
        QCOMPARE(ready.count(), 0);
        QCOMPARE(panel->reportText(), mixtureReport);
        tabs.bringToFront();
        QVERIFY(ready.wait(10'000));
        ViewState freshState;
        StreamPanel fresh(&freshState);
        QSignalSpy freshReady(&fresh, &StreamPanel::summaryReady);
        freshState.setStore(state.store());
        QVERIFY(freshReady.wait(10'000));
        QVERIFY(fresh.reportText() != mixtureReport);
        QCOMPARE(panel->reportText(), fresh.reportText());
        QCOMPARE(panel->verdictText(), fresh.verdictText());
    }

    // The workflow list keeps its fitted widths on a live refresh (measuring
    // them again on every refresh was most of its handler's time) and fits
    // them again on a trace opened in its place.
    void workflowListFitsItsColumnsOncePerTrace()
    {
        const auto adviser = [] {
            const LoadResult loaded = TraceFileLoader::load(
                QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"), LoadOptions{});
            if (!loaded.ok())
                qFatal("cannot load the adviser example: %s", qPrintable(loaded.fatalError));
            return loaded.store;
        };
        ViewState state;
        WorkflowPicker picker(&state);
        picker.resize(700, 400);
        state.setStore(adviser());
        QVERIFY(picker.view()->model()->rowCount() > 0);
        const int fitted = picker.view()->columnWidth(WorkflowListModel::Type);
        QVERIFY(fitted > 20);
        picker.view()->setColumnWidth(WorkflowListModel::Type, fitted + 37); // as a user might
        state.refreshStore(adviser());
        QCOMPARE(picker.view()->columnWidth(WorkflowListModel::Type), fitted + 37);
        state.setStore(adviser());
        QCOMPARE(picker.view()->columnWidth(WorkflowListModel::Type), fitted);
    }

    // The main window raises the Workflow dock for a span trace, but a live
    // refresh leaves the tab the user brought to the front (else every
    // refresh, twice a second, pushed it back behind the Workflow dock).
    void liveRefreshLeavesTheTabTheUserChose()
    {
        const auto adviser = [] {
            const LoadResult loaded = TraceFileLoader::load(
                QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json"), LoadOptions{});
            if (!loaded.ok())
                qFatal("cannot load the adviser example: %s", qPrintable(loaded.fatalError));
            return loaded.store;
        };
        MainWindow window;
        window.setPersistent(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *workflow = window.findChild<QDockWidget *>(QStringLiteral("workflowDock"));
        auto *classes = window.findChild<QDockWidget *>(QStringLiteral("classesDock"));
        QVERIFY(workflow && classes);
        window.viewState()->refreshStore(adviser()); // the first live snapshot: a span trace now
        QCoreApplication::processEvents();
        QVERIFY(!InSightWork::isOutOfSight(workflow->widget()));
        classes->raise();
        QCoreApplication::processEvents();
        QVERIFY(InSightWork::isOutOfSight(workflow->widget()));
        window.viewState()->refreshStore(adviser());
        QCoreApplication::processEvents();
        QVERIFY(!InSightWork::isOutOfSight(classes->widget()));
        QVERIFY(InSightWork::isOutOfSight(workflow->widget()));
        window.viewState()->setStore(adviser()); // a trace opened: its Gantt again
        QCoreApplication::processEvents();
        QVERIFY(!InSightWork::isOutOfSight(workflow->widget()));
    }

    // The Compare dock (closed in the live window) names the newest baseline
    // once it is opened.
    void comparePanelClosedNamesTheNewestBaselineOnceOpened()
    {
        ViewState state;
        auto *panel = new ComparePanel(&state);
        TabbedWindow tabs(panel);
        tabs.otherDock->close(); // the panel's dock alone: shown means in sight
        auto *sides = panel->findChild<QLabel *>(QStringLiteral("compareSides"));
        QVERIFY(sides);
        state.setStore(load(QStringLiteral("mixture.jsonl")));
        QVERIFY(sides->text().contains(QStringLiteral("mixture.jsonl")));

        tabs.panelDock->close();
        QCoreApplication::processEvents();
        state.refreshStore(load(QStringLiteral("region-tail.jsonl")));
        QVERIFY(sides->text().contains(QStringLiteral("mixture.jsonl"))); // unseen, not redone
        tabs.panelDock->show();
        QTRY_VERIFY(sides->text().contains(QStringLiteral("region-tail.jsonl")));
    }
};

QTEST_MAIN(tst_InSightWork)
#include "tst_insightwork.moc"
