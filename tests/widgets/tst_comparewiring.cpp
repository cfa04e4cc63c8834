// The Compare dock inside the main window: File → Compare With… (through
// compareWith), a second file dropped with Shift held, and what a new
// baseline does to the comparison.

#include "ComparePanel.h"
#include "ComparisonCdfPlot.h"
#include "ComparisonTableModel.h"
#include "ComparisonVerdictView.h"
#include "MainWindow.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowPanel.h"
#include "store/TraceStore.h"

#include <qcustomplot.h>

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

#include <cmath>

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/compare/") + name;
}

bool settle(MainWindow &window)
{
    return QTest::qWaitFor([&window] { return !window.isBusy(); }, 30'000);
}

struct Fixture
{
    MainWindow window;

    explicit Fixture(QSize size = QSize(1600, 1000))
    {
        window.setPersistent(false);
        window.resize(size);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("the window was not shown");
        QSignalSpy finished(&window, &MainWindow::loadFinished);
        window.openFile(fixture(QStringLiteral("baseline.jsonl")));
        if ((finished.isEmpty() && !finished.wait(30'000)) || !settle(window))
            qFatal("the baseline did not load");
    }
    ViewState &state() const { return *window.viewState(); }
    QDockWidget *dock() const { return window.findChild<QDockWidget *>(QStringLiteral("compareDock")); }
};

} // namespace

class tst_CompareWiring : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void menuOffersCompareWith();
    void compareWithLoadsTheCandidate();
    void compareGetsTheRoomItNeeds();
    void compareFitsALaptopScreen();
    void shiftDropComparesAndPlainDropOpens();
    void badCandidateIsExplained();
    void newBaselineDropsTheCandidate();
    void whatIfPredictionReachesCompare();

private:
    static void legendAndTicksFit(ComparisonCdfPlot *cdf, bool keyShown);
};

void tst_CompareWiring::menuOffersCompareWith()
{
    Fixture f;
    QAction *compare = nullptr;
    for (QAction *menu : f.window.menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction *action : menu->menu()->actions()) {
            if (action->text() == QStringLiteral("Compare &With\u2026"))
                compare = action;
        }
    }
    QVERIFY(compare);
    QVERIFY(f.dock());
    QCOMPARE(f.dock()->windowTitle(), QStringLiteral("Compare"));
}

void tst_CompareWiring::compareWithLoadsTheCandidate()
{
    Fixture f;
    QSignalSpy ready(f.window.comparePanel(), &ComparePanel::comparisonReady);
    f.window.compareWith(fixture(QStringLiteral("candidate.jsonl")));
    QVERIFY(ready.wait(30'000));
    QVERIFY(settle(f.window));
    QCOMPARE(f.state().candidateLabel(), QStringLiteral("candidate.jsonl"));
    QCOMPARE(f.state().candidate()->requests.rowCount(), 600);
    QVERIFY(f.dock()->isVisible());
    QVERIFY(f.window.comparePanel()->bannerText().startsWith(QStringLiteral("\u2714 THE CHANGE WORKED")));
    legendAndTicksFit(f.window.comparePanel()->cdfPlot(), true);
    // The baseline is still what every other view shows.
    QCOMPARE(f.state().requestCount(), 600);
    QVERIFY(f.state().requests()->idText(0).startsWith(QStringLiteral("base-")));
}

// At 1600x1000 the Compare dock kept the third of the height the Requests
// dock had, and the hidden lanes page set the panel's minimum height: the
// CDFs were cut off behind the dock's scroll bar, axis and all. A comparison
// now makes the dock tall enough for the page in front.
void tst_CompareWiring::compareGetsTheRoomItNeeds()
{
    Fixture f;
    QVERIFY(f.dock()->height() < 400);
    QSignalSpy ready(f.window.comparePanel(), &ComparePanel::comparisonReady);
    f.window.compareWith(fixture(QStringLiteral("candidate.jsonl")));
    QVERIFY(ready.wait(30'000));
    QVERIFY(settle(f.window));
    QTest::qWait(50);
    QVERIFY2(f.dock()->height() >= 400, qPrintable(QString::number(f.dock()->height())));
    auto *scroll = qobject_cast<QScrollArea *>(f.dock()->widget());
    QVERIFY(scroll);
    QWidget *cdf = f.window.comparePanel()->cdfPlot();
    QVERIFY(cdf->isVisible());
    const QRect shown(cdf->mapTo(scroll->viewport(), QPoint(0, 0)), cdf->size());
    QVERIFY2(scroll->viewport()->rect().contains(shown),
             qPrintable(QStringLiteral("the CDFs at %1,%2 %3x%4 in a viewport of %5x%6")
                            .arg(shown.x())
                            .arg(shown.y())
                            .arg(shown.width())
                            .arg(shown.height())
                            .arg(scroll->viewport()->width())
                            .arg(scroll->viewport()->height())));
    QVERIFY(cdf->height() >= 250);
    // The lanes keep room above it.
    QVERIFY(f.window.swimlanes()->height() >= 250);
    // A user who made it taller keeps that: a second comparison does not shrink it.
    const int given = f.dock()->height();
    f.window.resizeDocks({f.dock()}, {given + 80}, Qt::Vertical);
    QTest::qWait(50);
    const int chosen = f.dock()->height();
    QVERIFY2(chosen > given + 40, qPrintable(QStringLiteral("%1 after %2").arg(chosen).arg(given)));
    f.window.compareWith(fixture(QStringLiteral("candidate.jsonl")));
    QVERIFY(ready.wait(30'000));
    QVERIFY(settle(f.window));
    QCOMPARE(f.dock()->height(), chosen);
}

// At 1280x720 the dock has about 300 px: the CDFs' minimum height and the
// pages' pushed the plot's lower half, x axis included, behind the dock's
// scroll bar.
void tst_CompareWiring::compareFitsALaptopScreen()
{
    Fixture f(QSize(1280, 720));
    QSignalSpy ready(f.window.comparePanel(), &ComparePanel::comparisonReady);
    f.window.compareWith(fixture(QStringLiteral("candidate.jsonl")));
    QVERIFY(ready.wait(30'000));
    QVERIFY(settle(f.window));
    QTest::qWait(50);
    auto *scroll = qobject_cast<QScrollArea *>(f.dock()->widget());
    QVERIFY(scroll);
    QVERIFY2(!scroll->verticalScrollBar()->isVisible(),
             qPrintable(QStringLiteral("the Compare dock scrolls: %1 px for a panel of %2 px")
                            .arg(scroll->viewport()->height())
                            .arg(scroll->widget()->minimumSizeHint().height())));
    QWidget *cdf = f.window.comparePanel()->cdfPlot();
    const QRect shown(cdf->mapTo(scroll->viewport(), QPoint(0, 0)), cdf->size());
    QVERIFY(scroll->viewport()->rect().contains(shown));
    QVERIFY2(cdf->height() >= 130, qPrintable(QString::number(cdf->height())));
    QVERIFY(f.window.swimlanes()->height() >= 150);
    // In so short a plot the key to the marks is the tooltip, the legend
    // gets all the height it asks for, and the x labels have room.
    legendAndTicksFit(f.window.comparePanel()->cdfPlot(), false);
}

void tst_CompareWiring::legendAndTicksFit(ComparisonCdfPlot *cdf, bool keyShown)
{
    QCustomPlot *plot = cdf->plot();
    QCOMPARE(cdf->keyShown(), keyShown);
    QCOMPARE(plot->toolTip().contains(QStringLiteral("dashed: baseline")), !keyShown);
    const QCPLayoutElement *legend = plot->legend;
    QVERIFY2(legend->outerRect().height() >= legend->minimumOuterSizeHint().height(),
             qPrintable(QStringLiteral("legend %1 px of %2")
                            .arg(legend->outerRect().height())
                            .arg(legend->minimumOuterSizeHint().height())));
    const int ticks = plot->xAxis->ticker()->tickCount();
    QVERIFY2(ticks == 2 || ticks * 70 <= plot->axisRect()->width(),
             qPrintable(QStringLiteral("%1 ticks on %2 px").arg(ticks).arg(plot->axisRect()->width())));
}

void tst_CompareWiring::shiftDropComparesAndPlainDropOpens()
{
    Fixture f;
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(fixture(QStringLiteral("candidate.jsonl")))});
    QSignalSpy ready(f.window.comparePanel(), &ComparePanel::comparisonReady);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(&f.window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent shiftDrop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(&f.window, &shiftDrop);
    QVERIFY(ready.wait(30'000));
    QCOMPARE(f.state().candidateLabel(), QStringLiteral("candidate.jsonl"));
    QVERIFY(f.state().requests()->idText(0).startsWith(QStringLiteral("base-")));
    QVERIFY(settle(f.window));

    // Without Shift the dropped file replaces the trace, and the comparison goes with the old baseline.
    QSignalSpy finished(&f.window, &MainWindow::loadFinished);
    QDragEnterEvent plainEnter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&f.window, &plainEnter);
    QDropEvent plainDrop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&f.window, &plainDrop);
    QVERIFY(finished.wait(30'000));
    QVERIFY(f.state().requests()->idText(0).startsWith(QStringLiteral("cand-")));
    QVERIFY(!f.state().candidate());
}

void tst_CompareWiring::badCandidateIsExplained()
{
    Fixture f;
    f.window.compareWith(fixture(QStringLiteral("no-such-file.jsonl")));
    QVERIFY(settle(f.window));
    QVERIFY(!f.state().candidate());
    const auto *message = f.window.findChild<QLabel *>(QStringLiteral("statusMessage"));
    QVERIFY(message);
    QCOMPARE(message->text(),
             QStringLiteral("no-such-file.jsonl was not loaded: %1: no such file.")
                 .arg(fixture(QStringLiteral("no-such-file.jsonl"))));
    // Said where it is seen, too: the banner above the lanes.
    QCOMPARE(f.window.bannerText(), message->text());
    QCOMPARE(f.window.comparePanel()->bannerText(), QStringLiteral("No comparison yet."));
}

void tst_CompareWiring::newBaselineDropsTheCandidate()
{
    Fixture f;
    QSignalSpy ready(f.window.comparePanel(), &ComparePanel::comparisonReady);
    f.window.compareWith(fixture(QStringLiteral("candidate.jsonl")));
    QVERIFY(ready.wait(30'000));
    QSignalSpy finished(&f.window, &MainWindow::loadFinished);
    f.window.openFile(fixture(QStringLiteral("deploy.jsonl")));
    QVERIFY(finished.wait(30'000));
    QVERIFY(settle(f.window));
    QVERIFY(!f.state().candidate());
    QCOMPARE(f.window.comparePanel()->model()->rowCount(), 0);
    QCOMPARE(f.window.comparePanel()->bannerText(), QStringLiteral("No comparison yet."));
}

void tst_CompareWiring::whatIfPredictionReachesCompare()
{
    Fixture f;
    QCOMPARE(f.state().metric(), Metric::Ttft);
    WhatIfPanel *whatIf = f.window.workflowPanel()->whatIfPanel();
    // A TTFT view takes the TTFT saving, at the what-if's percentile.
    emit whatIf->predictionOffered(0.9, 120.0, 80.0);
    QCOMPARE(f.window.comparePanel()->spec().q, 0.9);
    QCOMPARE(f.window.comparePanel()->spec().predictedSavingMs, 80.0);
    QVERIFY(f.dock()->isVisible());
    // No TTFT recorded: the comparison turns to E2E, the quantity predicted.
    emit whatIf->predictionOffered(0.95, 250.0, std::nan(""));
    QCOMPARE(f.state().metric(), Metric::E2e);
    QCOMPARE(f.window.comparePanel()->spec().q, 0.95);
    QCOMPARE(f.window.comparePanel()->spec().predictedSavingMs, 250.0);
    // The candidate then shows the prediction beside the observed change.
    QSignalSpy ready(f.window.comparePanel(), &ComparePanel::comparisonReady);
    f.window.compareWith(fixture(QStringLiteral("candidate.jsonl")));
    QVERIFY(ready.wait(30'000));
    QVERIFY(settle(f.window));
    QCOMPARE(f.window.comparePanel()->spec().predictedSavingMs, 250.0);
    const QString verdict = f.window.comparePanel()->verdictView()->text();
    // p95 E2E 1,829.6 -> 1,708.7 ms: 120.9 ms of the 250 ms predicted.
    QVERIFY2(verdict.contains(QStringLiteral("predicted saving 250.0 ms, observed 120.9 ms [49.8 ms, 192.0 ms]: "
                                             "smaller than predicted (48% of it realised)")),
             qPrintable(verdict));
}

QTEST_MAIN(tst_CompareWiring)
#include "tst_comparewiring.moc"
