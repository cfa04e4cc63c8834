// The main window driven as a newcomer drives it (issue 9): keys pressed
// where the focus is, tabs and buttons clicked, files opened and dropped.
// Every test here failed before its defect was fixed. What the window shows
// (lanes, layout, labels, units): tst_userlayout.

#include "BackgroundPool.h"
#include "ClassTablePanel.h"
#include "DistributionPanel.h"
#include "ExceedancePanel.h"
#include "MainWindow.h"
#include "RequestTablePanel.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneCoordinates.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/lanes/LaneLayout.h"
#include "store/TraceStore.h"
#include "support/TestData.h"
#include "support/UserJourney.h"
#include "support/WindowDriver.h"

#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <cmath>

using namespace WindowDriver;
using TestData::fixture;
using TestData::source;

using namespace UserJourney;

class tst_UserJourneys : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void stepKeysIgnoreTheHiddenFilter();
    void stepKeysStillTypeInAVisibleField();
    void emptyFilterSaysSoInEveryView();
    void fileThatIsNotATraceKeepsTheTrace_data();
    void fileThatIsNotATraceKeepsTheTrace();
    void lateCancelIsFinal();
    void cancelByKeyKeepsTheTrace();
    void reloadKeepsTheExceedancePosition();
    void extraFilesAreExplained();
};

void tst_UserJourneys::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

// Issue 9, 1: type in the Requests filter, click the Exceedance tab, press N
// as the dock says. The filter field is hidden now; N must step, not type.
void tst_UserJourneys::stepKeysIgnoreTheHiddenFilter()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(typeFilter(*window, QStringLiteral("document")));
    QCOMPARE(window->viewState()->scopeSize(), 170);
    QVERIFY(clickTab(*window, QStringLiteral("Exceedance")));
    QVERIFY(settle(*window));
    ExceedancePanel *exceedance = window->exceedance();
    QVERIFY(exceedance->isVisible());
    // Out of sight: Qt moves a dock behind a tab away rather than hiding it.
    QVERIFY(window->requestTable()->filterEdit()->visibleRegion().isEmpty());
    QVERIFY(QApplication::focusWidget() != window->requestTable()->filterEdit());
    const std::vector<qint32> &members = exceedance->analysis()->set.members;
    QCOMPARE(members.size(), size_t(9)); // 170 documents, p95 at rank 160.55: ranks 161..169
    QCOMPARE(labelText(*exceedance, "exceedancePosition"),
             QStringLiteral("Press N to step through the 9 slow requests."));

    pressKey(*window, Qt::Key_N);
    QCOMPARE(window->requestTable()->filterEdit()->text(), QStringLiteral("document"));
    QCOMPARE(window->viewState()->scopeSize(), 170);
    QCOMPARE(exceedance->position(), 0);
    QCOMPARE(window->viewState()->exceedanceCursor(), members[0]);
    pressKey(*window, Qt::Key_N);
    pressKey(*window, Qt::Key_N);
    QCOMPARE(exceedance->position(), 2);
    pressKey(*window, Qt::Key_P);
    QCOMPARE(exceedance->position(), 1);
    QCOMPARE(window->viewState()->exceedanceCursor(), members[1]);
    QCOMPARE(window->requestTable()->filterEdit()->text(), QStringLiteral("document"));
}

// A visible text field keeps its letters: N types there and steps nothing.
void tst_UserJourneys::stepKeysStillTypeInAVisibleField()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(typeFilter(*window, QStringLiteral("docume")));
    pressKey(*window, Qt::Key_N);
    QCOMPARE(window->requestTable()->filterEdit()->text(), QStringLiteral("documen"));
    QCOMPARE(window->exceedance()->position(), -1);
    QCOMPARE(window->viewState()->exceedanceCursor(), -1);
}

// Issue 9, 1: a filter that matches nothing says so in every view it empties.
void tst_UserJourneys::emptyFilterSaysSoInEveryView()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(typeFilter(*window, QStringLiteral("documentn")));
    QCOMPARE(window->viewState()->scopeSize(), 0);
    const QString why = QStringLiteral(
        "No request matches the filter: text ~ \"documentn\". Clear or change it to see requests again.");
    QCOMPARE(window->viewState()->emptySliceText(), why);
    QCOMPARE(labelText(*window->swimlanes(), "laneInfo"), why);
    QCOMPARE(window->distributions()->emptyNote(), why);
    QCOMPARE(labelText(*window->classTable(), "classStatus"), why);
    QCOMPARE(labelText(*window->exceedance(), "exceedanceSummary"), why.toHtmlEscaped()); // rich text
    QCOMPARE(labelText(*window->exceedance(), "exceedancePosition"), why);
    QCOMPARE(labelText(*window->requestTable(), "requestCount"), QStringLiteral("No request matches (0 of 2,000)"));
    // The lanes say it where the lanes would be.
    SwimlaneCanvas *canvas = window->swimlanes()->canvas();
    const QImage shown = canvas->grab().toImage();
    int inked = 0;
    const QColor background = canvas->palette().color(QPalette::Base);
    for (int x = 0; x < shown.width(); x += 2)
        inked += QColor(shown.pixel(x, shown.height() / 2)) != background;
    QVERIFY2(inked > 20, qPrintable(QString::number(inked)));
    // Clearing the filter brings everything back, and the notes go.
    window->requestTable()->filterEdit()->clear();
    QTRY_VERIFY(!window->viewState()->hasSlice());
    QVERIFY(settle(*window));
    QVERIFY(window->distributions()->emptyNote().isEmpty());
    QCOMPARE(labelText(*window->requestTable(), "requestCount"), QStringLiteral("2,000 of 2,000 requests"));
}

void tst_UserJourneys::fileThatIsNotATraceKeepsTheTrace_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("why");
    QTest::newRow("empty file") << QByteArray() << QStringLiteral("x.jsonl was not loaded: ");
    QTest::newRow("blank lines") << QByteArray("\n\n  \n")
                                 << QStringLiteral("x.jsonl was not loaded: %1: no records; the file holds only blank "
                                                   "lines. The trace on screen is kept.");
    QTest::newRow("prose") << QByteArray("Dear diary,\ntoday nothing was slow.\n")
                           << QStringLiteral("x.jsonl was not loaded: it is not a trace Tracelane can read. 2 records "
                                             "were rejected, the first: line 1: ");
    QTest::newRow("json, not a trace") << QByteArray("{\"hello\": \"world\"}\n")
                                       << QStringLiteral("x.jsonl was not loaded: it is not a trace Tracelane can "
                                                         "read. 1 record was rejected, the first: line 1: ");
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                            << QStringLiteral("x.jsonl was not loaded: ");
}

// Issue 9, 4: opening a file that is not a trace, or an empty one, keeps the
// trace on screen and says in the banner why the new file did not load.
void tst_UserJourneys::fileThatIsNotATraceKeepsTheTrace()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, why);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.jsonl"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    why.replace(QStringLiteral("%1"), path);
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/multiclass.jsonl"))));
    const auto before = window->store();
    const QString summary = window->statusSummary();
    const QString title = window->windowTitle();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    dropFiles(*window, {path});
    QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(settle(*window));
    QCOMPARE(window->store(), before);
    QCOMPARE(window->statusSummary(), summary);
    QCOMPARE(window->windowTitle(), title);
    QCOMPARE(window->currentFile(), QFileInfo(fixture(QStringLiteral("seed/multiclass.jsonl"))).absoluteFilePath());
    QVERIFY2(window->bannerText().startsWith(why), qPrintable(window->bannerText()));
    QVERIFY2(window->bannerText().endsWith(QStringLiteral("The trace on screen is kept.")),
             qPrintable(window->bannerText()));
    auto *banner = window->findChild<QWidget *>(QStringLiteral("messageBanner"));
    QVERIFY(banner && banner->isVisible());
    QVERIFY(banner->height() >= banner->fontMetrics().height());
    // The banner goes when the user closes it, and with the next good load.
    QTest::mouseClick(banner->findChild<QWidget *>(QStringLiteral("messageBannerClose")), Qt::LeftButton);
    QVERIFY(window->bannerText().isEmpty());
    dropFiles(*window, {path});
    QTRY_VERIFY(!window->bannerText().isEmpty());
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/three-requests.jsonl"))));
    QVERIFY(window->bannerText().isEmpty());
}

// Cancel is final: a Cancel that arrives after the worker finished, but
// before its result reached the window, still keeps the trace on screen.
void tst_UserJourneys::lateCancelIsFinal()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/burst.jsonl"))));
    const auto before = window->store();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    window->openFile(fixture(QStringLiteral("seed/three-requests.jsonl")));
    QVERIFY(window->isLoading());
    // The worker returns; its result waits in the event queue.
    BackgroundPool::instance()->waitForDone();
    window->cancelLoad();
    QVERIFY(!window->isLoading());
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QTest::qWait(200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(window->store(), before);
    QCOMPARE(window->store()->requests.rowCount(), 10);
    QCOMPARE(window->currentFile(), QFileInfo(fixture(QStringLiteral("seed/burst.jsonl"))).absoluteFilePath());
}

// Esc while a load runs cancels it, with the same guarantee.
void tst_UserJourneys::cancelByKeyKeepsTheTrace()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, fixture(QStringLiteral("seed/burst.jsonl"))));
    const auto before = window->store();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    window->openFile(mixedClasses());
    pressKey(*window, Qt::Key_Escape);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    BackgroundPool::instance()->waitForDone();
    QTest::qWait(200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(window->store(), before);
}

// Issue 9, 8: Reload (F5) comes back to the slow request being looked at.
void tst_UserJourneys::reloadKeepsTheExceedancePosition()
{
    auto window = shownWindow();
    QVERIFY(window);
    QVERIFY(openAndSettle(*window, mixedClasses()));
    QVERIFY(clickTab(*window, QStringLiteral("Exceedance")));
    QVERIFY(settle(*window));
    for (int i = 0; i < 4; ++i)
        pressKey(*window, Qt::Key_N);
    ExceedancePanel *exceedance = window->exceedance();
    QCOMPARE(exceedance->position(), 3);
    const QString id = window->store()->requests.idText(window->viewState()->exceedanceCursor());
    const auto before = window->store();
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    pressKey(*window, Qt::Key_F5);
    QVERIFY(finished.wait(30'000));
    QVERIFY(settle(*window));
    QVERIFY(window->store() != before);
    QCOMPARE(exceedance->position(), 3);
    QCOMPARE(window->store()->requests.idText(window->viewState()->exceedanceCursor()), id);
    QVERIFY(labelText(*exceedance, "exceedancePosition").startsWith(QStringLiteral("4 of 100: request ") + id));
}

// Issue 9, 8: files given together (command line, drop) that are not opened
// are named, and the note stays after the first file loaded.
void tst_UserJourneys::extraFilesAreExplained()
{
    auto window = shownWindow();
    QVERIFY(window);
    QSignalSpy finished(window.get(), &MainWindow::loadFinished);
    window->openFiles({fixture(QStringLiteral("seed/three-requests.jsonl")),
                       fixture(QStringLiteral("seed/burst.jsonl")), mixedClasses()});
    QVERIFY(finished.wait(30'000));
    QVERIFY(settle(*window));
    QCOMPARE(window->store()->requests.rowCount(), 3);
    QCOMPARE(window->bannerText(),
             QStringLiteral("Opened three-requests.jsonl only; 2 other files were not opened (burst.jsonl, "
                            "mixed-classes.jsonl): Tracelane shows one trace at a time. Open another with File \u2192 "
                            "Open."));
    finished.clear();
    dropFiles(*window, {fixture(QStringLiteral("seed/burst.jsonl")), mixedClasses()});
    QVERIFY(finished.wait(30'000));
    QCOMPARE(window->bannerText(),
             QStringLiteral("Opened burst.jsonl only; 1 other file was not opened (mixed-classes.jsonl): Tracelane "
                            "shows one trace at a time. Open another with File \u2192 Open."));
}

QTEST_MAIN(tst_UserJourneys)
#include "tst_userjourneys.moc"
