#include "AboutDialog.h"
#include "Appearance.h"
#include "DistributionPanel.h"
#include "KeyboardShortcutsDialog.h"
#include "LoadProgressBar.h"
#include "MainWindow.h"
#include "PhaseColors.h"
#include "PhaseLegend.h"
#include "RecentFiles.h"
#include "RejectedRecordsModel.h"
#include "RejectedRecordsPanel.h"
#include "RequestDetailPanel.h"
#include "RequestTableModel.h"
#include "RequestTablePanel.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "WorkflowGantt.h"
#include "WorkflowPanel.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/lanes/WorkflowLanes.h"
#include "store/TraceStore.h"
#include "support/TestData.h"

#include <QAction>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <nlohmann/json.hpp>

using TestData::fixture;

namespace {

// Loads `path` through the window and waits until every view has settled.
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

QAction *actionWithShortcut(QWidget &window, const QKeySequence &keys)
{
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcut() == keys)
            return action;
    }
    return nullptr;
}

// The dock in front among the tabbed ones that include "Workflow".
QString frontTab(const MainWindow &window)
{
    for (const QTabBar *bar : window.findChildren<QTabBar *>()) {
        for (int tab = 0; tab < bar->count(); ++tab) {
            if (bar->tabText(tab) == QStringLiteral("Workflow"))
                return bar->tabText(bar->currentIndex());
        }
    }
    return {};
}

} // namespace

class tst_MainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void openFillsEveryView();
    void rejectedRecordsAreListed();
    void cancelKeepsTheWindowUsable();
    void reloadAndClose();
    void dropOpensTheFile();
    void activationShowsTheRequest();
    void spanTraceOpensOnItsWorkflow();
    void doubleClickOnAWorkflowLaneOpensItsGantt();
    void requestedPanelStaysInFront();
    void fitsALaptopScreen();
    void standardShortcuts_data();
    void standardShortcuts();
    void progressText_data();
    void progressText();
    void recentFilesRule_data();
    void recentFilesRule();
    void aboutNamesTheVersions();
    void settingsPersist();
    void darkPaletteReachesTheViews();
    void screenshotCommandLine();
};

void tst_MainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // never touch the user's settings
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void tst_MainWindow::openFillsEveryView()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/multiclass.jsonl"))));
    QCOMPARE(window.store()->requests.rowCount(), 240);
    QCOMPARE(window.swimlanes()->canvas()->laneLayout()->slotCount(), 240);
    QCOMPARE(window.requestTable()->model()->rowCount(), 240);
    QCOMPARE(window.distributions()->scopeDistribution().n, 240);
    QCOMPARE(window.distributions()->title(),
             QStringLiteral("TTFT at the client boundary \u00b7 n = 240 \u00b7 whole trace"));
    QCOMPARE(window.statusSummary(), QStringLiteral("240 requests | 0 rejected | span 42.24 s | client boundary"));
    QCOMPARE(window.windowTitle(), QStringLiteral("multiclass.jsonl \u2014 Tracelane"));
    // The boundary is one of the figure's coordinates everywhere.
    window.viewState()->setBoundary(Boundary::Server);
    QTRY_VERIFY(!window.isBusy());
    QVERIFY(window.statusSummary().endsWith(QStringLiteral("server boundary")));
    QCOMPARE(window.distributions()->title(),
             QStringLiteral("TTFT at the server boundary \u00b7 n = 240 \u00b7 whole trace"));
}

void tst_MainWindow::rejectedRecordsAreListed()
{
    MainWindow window;
    window.setPersistent(false);
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("malformed/missing-field.jsonl"))));
    QCOMPARE(window.store()->requests.rowCount(), 2);
    QCOMPARE(window.rejectedRecords()->model()->rowCount(), 1);
    QCOMPARE(window.rejectedRecords()->model()->index(0, RejectedRecordsModel::Request).data().toString(),
             QStringLiteral("r-002"));
    QVERIFY(window.statusSummary().startsWith(QStringLiteral("2 requests | 1 rejected | ")));
}

void tst_MainWindow::cancelKeepsTheWindowUsable()
{
    // Big enough that parsing is still under way when Cancel arrives.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.jsonl"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 60'000; ++i) {
            file.write(
                QStringLiteral("{\"request_id\": \"q-%1\", \"prompt_tokens\": 100, \"output_tokens\": 10, "
                               "\"client_send_ms\": %2, \"gateway_arrival_ms\": %3, \"queue_enter_ms\": %4, "
                               "\"prefill_start_ms\": %5, \"prefill_end_ms\": %6, \"first_token_server_ms\": %7, "
                               "\"first_token_client_ms\": %8, \"last_token_client_ms\": %9}\n")
                    .arg(i)
                    .arg(i * 10)
                    .arg(i * 10 + 1)
                    .arg(i * 10 + 2)
                    .arg(i * 10 + 3)
                    .arg(i * 10 + 4)
                    .arg(i * 10 + 5)
                    .arg(i * 10 + 6)
                    .arg(i * 10 + 9)
                    .toUtf8());
        }
    }
    MainWindow window;
    window.setPersistent(false);
    window.show();
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/burst.jsonl"))));
    const auto before = window.store();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    window.openFile(path);
    QVERIFY(window.isLoading());
    QVERIFY(window.loadProgress()->isVisibleTo(&window));
    QCOMPARE(window.loadProgress()->text(), QStringLiteral("Loading big.jsonl: 0%"));
    // The status bar's Cancel button, as the user clicks it.
    auto *cancel = window.loadProgress()->findChild<QToolButton *>(QStringLiteral("cancelLoad"));
    QVERIFY(cancel);
    QVERIFY(cancel->isVisibleTo(&window));
    QTest::mouseClick(cancel, Qt::LeftButton);
    if (finished.isEmpty())
        QVERIFY(finished.wait(30'000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY(!window.isLoading());
    QVERIFY(!window.loadProgress()->isVisibleTo(&window));
    // The previous trace stays on screen.
    QCOMPARE(window.store(), before);
    QCOMPARE(window.currentFile(), QFileInfo(fixture(QStringLiteral("seed/burst.jsonl"))).absoluteFilePath());
    // And the window still loads the big file when asked again.
    QVERIFY(openAndSettle(window, path));
    QCOMPARE(window.store()->requests.rowCount(), 60'000);
}

void tst_MainWindow::reloadAndClose()
{
    MainWindow window;
    window.setPersistent(false);
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/burst.jsonl"))));
    const auto first = window.store();
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    QAction *reload = actionWithShortcut(window, QKeySequence(Qt::Key_F5));
    QVERIFY(reload);
    reload->trigger();
    if (finished.isEmpty())
        QVERIFY(finished.wait(30'000));
    QVERIFY(window.store() != first);
    QCOMPARE(window.store()->requests.rowCount(), 10);
    QSignalSpy stores(window.viewState(), &ViewState::storeChanged);
    actionWithShortcut(window, QKeySequence::Close)->trigger();
    QCOMPARE(stores.count(), 1);
    QVERIFY(!window.store());
    QCOMPARE(window.statusSummary(), QStringLiteral("0 requests | 0 rejected |  | client boundary"));
}

void tst_MainWindow::dropOpensTheFile()
{
    MainWindow window;
    window.setPersistent(false);
    window.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(fixture(QStringLiteral("seed/three-requests.jsonl")))});
    QSignalSpy finished(&window, &MainWindow::loadFinished);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    if (finished.isEmpty())
        QVERIFY(finished.wait(30'000));
    QCOMPARE(window.store()->requests.rowCount(), 3);
}

void tst_MainWindow::activationShowsTheRequest()
{
    MainWindow window;
    window.setPersistent(false);
    window.show();
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/three-requests.jsonl"))));
    window.viewState()->activateRow(2);
    QCOMPARE(window.requestDetail()->shownRow(), 2);
    QVERIFY(window.requestDetail()->isVisibleTo(&window));
    window.viewState()->selectRow(1);
    QCOMPARE(window.requestDetail()->shownRow(), 1);
}

void tst_MainWindow::spanTraceOpensOnItsWorkflow()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(openAndSettle(window, QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json")));
    // The workflow is a lane like any request, and its Gantt is in front.
    QCOMPARE(window.swimlanes()->canvas()->laneLayout()->slotCount(), 1);
    QCOMPARE(window.requestTable()->model()->rowCount(), 1);
    QCOMPARE(frontTab(window), QStringLiteral("Workflow"));
    QVERIFY(window.workflowPanel()->isVisible());
    QCOMPARE(window.workflowPanel()->workflow(), 0);
    QVERIFY(window.workflowPanel()->analysis().ok());
    QCOMPARE(window.workflowPanel()->gantt()->rows().size(), size_t(10));
    QCOMPARE(window.workflowPanel()->analysis().timing.e2e(), qint64(5'986'000'000));
    // A flat trace next: back to the requests, no workflow.
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/three-requests.jsonl"))));
    QCOMPARE(frontTab(window), QStringLiteral("Requests"));
    QVERIFY(window.requestTable()->isVisible());
    QCOMPARE(window.workflowPanel()->workflow(), -1);
}

// `--panel classesDock` (showPanel) before a load: the load must not bring
// another tab to the front.
void tst_MainWindow::requestedPanelStaysInFront()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(!window.showPanel(QStringLiteral("noSuchDock")));
    QVERIFY(window.showPanel(QStringLiteral("streams"))); // the tab's title, any case
    QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("streamsDock"))->isVisible());
    QVERIFY(window.showPanel(QStringLiteral("classesDock")));
    QVERIFY(openAndSettle(window, QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json")));
    QCOMPARE(frontTab(window), QStringLiteral("Classes"));
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/three-requests.jsonl"))));
    QCOMPARE(frontTab(window), QStringLiteral("Classes"));
}

// Every dock can shrink below its panel's minimum (it scrolls), so the whole
// window, loaded and with every panel shown, fits a 1366x768 screen.
void tst_MainWindow::fitsALaptopScreen()
{
    MainWindow window;
    window.setPersistent(false);
    window.show();
    QVERIFY(openAndSettle(window, QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl")));
    for (const char *dock : {"classesDock", "exceedanceDock", "workflowDock", "detailDock"})
        QVERIFY(window.showPanel(QLatin1String(dock)));
    window.resize(1366, 768);
    QCoreApplication::processEvents();
    const QSize least = window.minimumSizeHint();
    QVERIFY2(least.width() <= 1366 && least.height() <= 768,
             qPrintable(QStringLiteral("minimum %1x%2").arg(least.width()).arg(least.height())));
    QCOMPARE(window.size(), QSize(1366, 768));
}

void tst_MainWindow::doubleClickOnAWorkflowLaneOpensItsGantt()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // 141 traces of the OpenTelemetry demo: one lane each. No model call
    // records a token time, so the views open on E2E, and the Workflow dock
    // on the slowest workflow of the E2E exceedance set that is a request,
    // not one of the three long-lived flagd event streams (48.5, 37.5 and
    // 30.1 s, one span each) that are slower still.
    QVERIFY(openAndSettle(window, QStringLiteral(TRACELANE_REALDATA_DIR "/otel-tui/test_data.json")));
    const auto store = window.store();
    QCOMPARE(store->workflows.rowCount(), 141);
    QCOMPARE(window.swimlanes()->canvas()->laneLayout()->slotCount(), 141);
    QCOMPARE(window.viewState()->metric(), Metric::E2e);
    QCOMPARE(window.distributions()->scopeDistribution().n, 141);
    qint32 slowest = -1;
    qint64 longest = -1;
    for (qint32 row = 0; row < store->requests.rowCount(); ++row) {
        const qint64 e2e
            = store->requests.stamp(row, Stamp::LastTokenClient) - store->requests.stamp(row, Stamp::ClientSend);
        if (e2e > longest) {
            longest = e2e;
            slowest = row;
        }
    }
    QCOMPARE(longest, qint64(48'510'395'614));
    QVERIFY(window.workflowPanel()->workflow() != WorkflowAnalysis::workflowOfRequestRow(*store, slowest));
    QCOMPARE(window.workflowPanel()->title()->text(),
             QStringLiteral("Workflow 09f5d449f0603a515e4f802b6d84a19b: 4 spans, E2E 5010.34 ms, no TTFT (no token "
                            "time recorded)"));
    // Each lane is coloured by its critical path; the streams are flagged.
    const auto lanes = window.swimlanes()->canvas()->workflowLanes();
    QVERIFY(lanes);
    QCOMPARE(lanes->laneCount(), 141);
    qint32 streams = 0;
    for (qint32 lane = 0; lane < lanes->laneCount(); ++lane)
        streams += (lanes->flags(lane) & WorkflowLanes::LongLivedStream) ? 1 : 0;
    QCOMPARE(streams, 3);
    QVERIFY(lanes->flags(lanes->laneOfRow(slowest)) & WorkflowLanes::LongLivedStream);

    // Put the requests in front, then double-click a lane.
    window.findChild<QDockWidget *>(QStringLiteral("requestsDock"))->raise();
    QCOMPARE(frontTab(window), QStringLiteral("Requests"));
    SwimlaneCanvas *canvas = window.swimlanes()->canvas();
    canvas->setLaneWindow({0.0, 10.0}); // ten lanes: each its own
    QVERIFY(canvas->showsSingleLanes());
    const auto &layout = canvas->laneLayout();
    qint64 slot = 0;
    while (layout->rowAt(slot) == slowest)
        ++slot;
    const qint32 row = layout->rowAt(slot);
    const QPoint onLane(canvas->width() / 2, int(canvas->height() * (slot + 0.5) / 10.0));
    QCOMPARE(canvas->slotAt(onLane), slot);
    QTest::mouseDClick(canvas, Qt::LeftButton, {}, onLane);
    QTRY_COMPARE(window.workflowPanel()->workflow(), WorkflowAnalysis::workflowOfRequestRow(*store, row));
    QTRY_VERIFY(!window.isBusy());
    QCOMPARE(frontTab(window), QStringLiteral("Workflow"));
    QCOMPARE(window.workflowPanel()->analysis().workflowId, store->requests.idText(row));
}

void tst_MainWindow::standardShortcuts_data()
{
    QTest::addColumn<QKeySequence>("keys");
    QTest::newRow("open") << QKeySequence(QKeySequence::Open);
    QTest::newRow("close") << QKeySequence(QKeySequence::Close);
    QTest::newRow("reload") << QKeySequence(Qt::Key_F5);
    QTest::newRow("quit") << QKeySequence(QKeySequence::Quit);
    QTest::newRow("full screen") << QKeySequence(Qt::Key_F11);
}

void tst_MainWindow::standardShortcuts()
{
    QFETCH(QKeySequence, keys);
    MainWindow window;
    window.setPersistent(false);
    QVERIFY(actionWithShortcut(window, keys));
    // Every one of them is listed in Help -> Keyboard Shortcuts.
    const QString text = keys.toString(QKeySequence::NativeText);
    bool listed = false;
    for (const auto &[shortcut, action] : KeyboardShortcutsDialog::shortcuts())
        listed = listed || shortcut == text;
    QVERIFY2(listed, qPrintable(text));
}

void tst_MainWindow::progressText_data()
{
    QTest::addColumn<double>("fraction");
    QTest::addColumn<qint64>("records");
    QTest::addColumn<qint64>("elapsedMs");
    QTest::addColumn<QString>("text");
    QTest::newRow("just started") << 0.0 << qint64(0) << qint64(0) << QStringLiteral("0%");
    QTest::newRow("millions per second") << 0.42 << qint64(1'200'000) << qint64(1000)
                                         << QStringLiteral("42% \u00b7 1.2 M records/s \u00b7 about 2 s left");
    QTest::newRow("thousands per second")
        << 0.5 << qint64(5000) << qint64(2000) << QStringLiteral("50% \u00b7 2500 records/s \u00b7 about 2 s left");
    QTest::newRow("almost done") << 0.99 << qint64(990'000) << qint64(3000)
                                 << QStringLiteral("99% \u00b7 330000 records/s \u00b7 under 1 s left");
}

void tst_MainWindow::progressText()
{
    QFETCH(double, fraction);
    QFETCH(qint64, records);
    QFETCH(qint64, elapsedMs);
    QFETCH(QString, text);
    QCOMPARE(LoadProgressBar::describe(fraction, records, elapsedMs), text);
}

void tst_MainWindow::recentFilesRule_data()
{
    QTest::addColumn<QStringList>("before");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("after");
    QTest::newRow("first") << QStringList{} << QStringLiteral("/a") << QStringList{QStringLiteral("/a")};
    QTest::newRow("newest first") << QStringList{QStringLiteral("/a")} << QStringLiteral("/b")
                                  << QStringList{QStringLiteral("/b"), QStringLiteral("/a")};
    QTest::newRow("reopening moves to the top")
        << QStringList{QStringLiteral("/a"), QStringLiteral("/b")} << QStringLiteral("/b")
        << QStringList{QStringLiteral("/b"), QStringLiteral("/a")};
    QStringList eight;
    for (int i = 0; i < 8; ++i)
        eight.append(QStringLiteral("/f%1").arg(i));
    QStringList expected = eight.mid(0, 7);
    expected.prepend(QStringLiteral("/new"));
    QTest::newRow("at most eight") << eight << QStringLiteral("/new") << expected;
}

void tst_MainWindow::recentFilesRule()
{
    QFETCH(QStringList, before);
    QFETCH(QString, path);
    QFETCH(QStringList, after);
    QCOMPARE(RecentFiles::withAdded(before, path), after);
}

void tst_MainWindow::aboutNamesTheVersions()
{
    QCOMPARE(AboutDialog::versions(),
             QStringLiteral("Qt %1 (built with %2), QCustomPlot 2.1.0, nlohmann/json %3.%4.%5")
                 .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR))
                 .arg(NLOHMANN_JSON_VERSION_MAJOR)
                 .arg(NLOHMANN_JSON_VERSION_MINOR)
                 .arg(NLOHMANN_JSON_VERSION_PATCH));
}

void tst_MainWindow::settingsPersist()
{
    // Test mode: QSettings live under ~/.qttest, never the user's.
    QSettings().clear();
    const QString path = fixture(QStringLiteral("seed/three-requests.jsonl"));
    QByteArray savedGeometry;
    {
        MainWindow window; // persistent, as the application runs it
        window.resize(1500, 950);
        window.show();
        QVERIFY(openAndSettle(window, path));
        window.findChild<QDockWidget *>(QStringLiteral("distributionsDock"))->hide();
        savedGeometry = window.saveGeometry();
        QVERIFY(window.close()); // closeEvent writes the settings
    }
    QCOMPARE(RecentFiles::load(), QStringList{path});
    MainWindow again;
    again.restoreSettings();
    again.show();
    QVERIFY(again.findChild<QDockWidget *>(QStringLiteral("distributionsDock"))->isHidden());
    QVERIFY(!again.findChild<QDockWidget *>(QStringLiteral("requestsDock"))->isHidden());
    QCOMPARE(QSettings().value(QStringLiteral("window/geometry")).toByteArray(), savedGeometry);
    QCOMPARE(again.size(), QSize(1500, 950));
    // The recent file is in File -> Open Recent, and opens from there.
    QMenu *recent = nullptr;
    for (QMenu *menu : again.findChildren<QMenu *>()) {
        if (menu->title() == QStringLiteral("Open &Recent"))
            recent = menu;
    }
    QVERIFY(recent);
    QAction *first = recent->actions().value(0);
    QVERIFY(first);
    QCOMPARE(first->text(), QStringLiteral("&1  three-requests.jsonl"));
    QCOMPARE(first->toolTip(), path);
    QSignalSpy finished(&again, &MainWindow::loadFinished);
    first->trigger();
    if (finished.isEmpty())
        QVERIFY(finished.wait(30'000));
    QCOMPARE(again.store()->requests.rowCount(), 3);
    again.setPersistent(false);
    QSettings().clear();
}

void tst_MainWindow::darkPaletteReachesTheViews()
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1500, 950);
    window.show();
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/three-requests.jsonl"))));
    const QColor lightBase = window.palette().color(QPalette::Base);
    Appearance::apply(Appearance::Mode::Dark);
    const QColor darkBase(0x1F, 0x21, 0x24);
    // The palette reaches the widgets through posted change events.
    QTRY_COMPARE(window.palette().color(QPalette::Base), darkBase);
    QTRY_COMPARE(window.swimlanes()->canvas()->palette().color(QPalette::Base), darkBase);
    // Swimlanes: background away from any lane (lane 0 ends at 2 s of 4).
    window.viewState()->setTimeWindow({0, 4'000'000'000});
    SwimlaneCanvas *canvas = window.swimlanes()->canvas();
    const QImage frame = canvas->renderFrame();
    const QPoint empty(int(canvas->width() * 3.3 / 4.0), canvas->height() / 6);
    QCOMPARE(QColor(frame.pixel(empty)), darkBase);
    // Distributions: plot background and text.
    auto *plot = window.distributions()->findChild<QWidget *>(QStringLiteral("distributionPlot"));
    QVERIFY(plot);
    QCOMPARE(QColor(plot->grab().toImage().pixel(2, 2)), darkBase);
    // The phase colours stay the same on dark.
    auto *legend = window.findChild<PhaseLegend *>(QStringLiteral("phaseLegend"));
    QVERIFY(legend->text().contains(PhaseColors::of(Phase::Prefill).name()));
    Appearance::apply(Appearance::Mode::Light);
    QTRY_VERIFY(canvas->palette().color(QPalette::Base).lightness() > 200);
    QCOMPARE(QColor(canvas->renderFrame().pixel(empty)), canvas->palette().color(QPalette::Base));
    Appearance::apply(Appearance::Mode::FollowSystem);
    QTRY_COMPARE(window.palette().color(QPalette::Base), lightBase);
}

void tst_MainWindow::screenshotCommandLine()
{
    // tracelane --screenshot OUT.png --size WxH FILE: loads FILE given on the
    // command line, renders the whole window offscreen at that size, exits 0.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("window.png"));
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path()); // no user settings
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(TRACELANE_GUI_PATH),
              {QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("1600x1000"),
               fixture(QStringLiteral("seed/multiclass.jsonl"))});
    QVERIFY(app.waitForFinished(120'000));
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 0);
    const QImage image(out);
    QCOMPARE(image.size(), QSize(1600, 1000));
    // What it shows: the same window opened here, at the same size, holds
    // the lanes and the plot where the file's picture has the trace's colours
    // (a picture taken before the lanes were laid out, or of an empty window,
    // has none of them).
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(openAndSettle(window, fixture(QStringLiteral("seed/multiclass.jsonl"))));
    const auto where
        = [&window](QWidget *widget) { return QRect(widget->mapTo(&window, QPoint(0, 0)), widget->size()); };
    const auto count = [&image](const QRect &area, QColor colour) {
        int n = 0;
        for (int y = area.top(); y <= area.bottom(); ++y) {
            for (int x = area.left(); x <= area.right(); ++x)
                n += image.pixelColor(x, y) == colour;
        }
        return n;
    };
    const QRect lanes = where(window.swimlanes()->canvas());
    // 240 lanes of mostly stream, with their queues: thousands of pixels.
    QVERIFY2(count(lanes, PhaseColors::of(Phase::Stream)) > 20'000,
             qPrintable(QString::number(count(lanes, PhaseColors::of(Phase::Stream)))));
    QVERIFY2(count(lanes, PhaseColors::of(Phase::Queue)) > 100,
             qPrintable(QString::number(count(lanes, PhaseColors::of(Phase::Queue)))));
    // And it is this window's picture: the lanes and the distribution plot
    // match what the window here draws, pixel for pixel but for a few.
    const auto differing = [&image, &where](QWidget *widget) {
        const QImage here = widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QImage there = image.copy(where(widget)).convertToFormat(QImage::Format_RGB32);
        if (here.size() != there.size())
            return -1;
        int n = 0;
        for (int y = 0; y < here.height(); ++y) {
            for (int x = 0; x < here.width(); ++x)
                n += here.pixel(x, y) != there.pixel(x, y);
        }
        return n;
    };
    auto *plot = window.distributions()->findChild<QWidget *>(QStringLiteral("distributionPlot"));
    QVERIFY(plot);
    for (QWidget *widget : {static_cast<QWidget *>(window.swimlanes()->canvas()), plot}) {
        const int n = differing(widget);
        QVERIFY2(n >= 0 && n <= widget->width() * widget->height() / 100,
                 qPrintable(QStringLiteral("%1: %2 pixels differ").arg(widget->objectName()).arg(n)));
    }
    // A usage error is exit status 2.
    app.start(QStringLiteral(TRACELANE_GUI_PATH),
              {QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("big"),
               fixture(QStringLiteral("seed/burst.jsonl"))});
    QVERIFY(app.waitForFinished(120'000));
    QCOMPARE(app.exitCode(), 2);
}

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
