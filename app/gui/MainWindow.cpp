#include "MainWindow.h"

#include "AboutDialog.h"
#include "Appearance.h"
#include "ClassTablePanel.h"
#include "ClickHouseWiring.h"
#include "ComparePanel.h"
#include "CompareWiring.h"
#include "CountText.h"
#include "DistributionPanel.h"
#include "DockLayout.h"
#include "ExceedancePanel.h"
#include "InSightWork.h"
#include "KeyboardShortcutsDialog.h"
#include "LiveWiring.h"
#include "LoadProgressBar.h"
#include "MessageBanner.h"
#include "RecentFiles.h"
#include "RejectedRecordsPanel.h"
#include "ReportView.h"
#include "RequestDetailPanel.h"
#include "RequestTablePanel.h"
#include "ReviewWiring.h"
#include "StreamsWiring.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneCoordinates.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "WorkflowPanel.h"
#include "analysis/requests/ProfileReport.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "clickhouse/ClickHouseSource.h"
#include "io/LoadVerdict.h"
#include "remote/ServerFigures.h"
#include "remote/TraceSource.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMimeData>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace {

// The Exceedance dock's when it comes to the front: at 1280x720 the
// summary, the attribution table's first four phases and the member table's
// header show, and the lanes keep ~130 px.
constexpr double kExceedanceShare = 0.45;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_state(new ViewState(this))
    , m_load(new TraceLoadJob(this))
    , m_progressTimer(new QTimer(this))
{
    setWindowTitle(QStringLiteral("Tracelane"));
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    m_swimlanes = new SwimlaneView(m_state, this);
    // The banner sits above the lanes: seen at once, and it never covers data.
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(2);
    m_banner = new MessageBanner(central);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_swimlanes, 1);
    setCentralWidget(central);
    createDocks();
    m_review = new ReviewWiring(this, m_state);
    m_compare = new CompareWiring(this, m_state);
    m_streams = new StreamsWiring(this, m_state);
    m_live = new LiveWiring(this, m_state);
    m_clickHouse = new ClickHouseWiring(this, m_state);
    createActions();
    m_review->installViewActions();
    createStatusBar();
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &MainWindow::updateProgress);
    connect(m_load, &TraceLoadJob::finished, this, &MainWindow::finishLoad);
    connect(m_state, &ViewState::rowActivated, this, [this] {
        m_detailDock->show();
        m_detailDock->raise();
    });
    // A workflow's lane opens its span Gantt.
    connect(m_state, &ViewState::rowActivated, this, [this](qint32 row) {
        const auto &store = m_state->store();
        if (store && WorkflowAnalysis::workflowOfRequestRow(*store, row) >= 0) {
            m_workflowDock->show();
            m_workflowDock->raise();
        }
    });
    connect(m_state, &ViewState::boundaryChanged, this, [this] {
        updateStatus();
        updateReport();
    });
    connect(m_state, &ViewState::sliceChanged, this, &MainWindow::updateStatus);
    connect(m_state, &ViewState::storeChanged, this, [this] {
        updateStatus();
        updateReport();
    });
    // A span trace opens on its workflow's Gantt; a flat one on the requests.
    // A live refresh of the same kind of trace leaves the tabs as the user put them.
    connect(m_state, &ViewState::storeChanged, this, [this, hadWorkflows = false]() mutable {
        const auto &store = m_state->store();
        const bool workflows = store && store->workflows.rowCount() > 0;
        if (std::exchange(hadWorkflows, workflows) == workflows && m_state->isStoreRefresh())
            return;
        if (!m_pinnedDock.isEmpty()) {
            showPanel(m_pinnedDock); // the command line asked for this one
        } else if (store && store->workflows.rowCount() > 0) {
            m_workflowDock->show();
            m_workflowDock->raise();
        } else if (auto *requests = findChild<QDockWidget *>(QStringLiteral("requestsDock"))) {
            requests->raise();
        }
    });
    m_dockLayout = new DockLayout(this); // after every dock exists
    // Docks whose content needs more than the bottom third: the exceedance
    // summary, member strip and attribution table, the comparison's table
    // and CDFs (at 1280x720 the member table was a clipped header).
    m_dockLayout->giveRoomWhenShown(findChild<QDockWidget *>(QStringLiteral("exceedanceDock")), kExceedanceShare);
    m_dockLayout->giveRoomWhenShown(m_compare->dock(), CompareWiring::kRoom);
    updateStatus();
}

MainWindow::~MainWindow()
{
    m_load->cancel();
    m_compare->cancel();
    // The docks die after this window's members, and a dying dock reports
    // itself hidden: nothing of this window may hear it any more.
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        dock->disconnect(this);
}

QDockWidget *MainWindow::addDock(const QString &objectName, const QString &title, QWidget *widget,
                                 Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName); // stable: the layout is saved by name
    // Inside a scroll area a dock can shrink below its panel's minimum size,
    // so the window still fits a laptop screen; the panel scrolls instead.
    auto *scroll = new QScrollArea(dock);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(widget);
    dock->setWidget(scroll);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
                      | QDockWidget::DockWidgetFloatable);
    addDockWidget(area, dock);
    // visibilityChanged also says when a tab goes behind or comes to the front.
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
        if (visible) {
            m_docksBehind.remove(dock);
            m_shownDock = dock;
        } else {
            m_docksBehind.insert(dock);
        }
        // Once both tabs of a switch have reported.
        QTimer::singleShot(0, this, &MainWindow::rescueHiddenFocus);
    });
    return dock;
}

// A dock sent behind another tab is not hidden: Qt moves it out of sight and
// it keeps the keyboard focus, so a text field nobody sees would go on eating
// single-key shortcuts (N / P). Focus left in a widget out of sight moves to
// the dock just brought to the front, else to the lanes.
void MainWindow::rescueHiddenFocus()
{
    QWidget *focus = QApplication::focusWidget();
    if (!focus || focus->window() != this)
        return;
    const bool outOfSight = !focus->isVisible()
        || std::any_of(m_docksBehind.begin(), m_docksBehind.end(),
                       [focus](const QDockWidget *dock) { return dock->isAncestorOf(focus); });
    if (!outOfSight)
        return;
    if (m_shownDock && m_shownDock->isVisible() && !m_docksBehind.contains(m_shownDock)) {
        for (QWidget *next = m_shownDock->nextInFocusChain(); next && next != m_shownDock;
             next = next->nextInFocusChain()) {
            if (m_shownDock->isAncestorOf(next) && next->isVisible() && next->isEnabled()
                && (next->focusPolicy() & Qt::TabFocus) == Qt::TabFocus) {
                next->setFocus(Qt::OtherFocusReason);
                return;
            }
        }
    }
    m_swimlanes->canvas()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::createDocks()
{
    m_requestTable = new RequestTablePanel(m_state, this);
    m_distributions = new DistributionPanel(m_state, this);
    m_rejected = new RejectedRecordsPanel(m_state, this);
    m_detail = new RequestDetailPanel(m_state, this);
    m_report = new ReportView(this);
    m_report->showMessage(tr("Open a trace with File \u2192 Open (Ctrl+O) or drop one on the window."));
    m_reportInSight = new InSightWork(m_report, [this] { computeReport(); });

    QDockWidget *requests
        = addDock(QStringLiteral("requestsDock"), tr("Requests"), m_requestTable, Qt::BottomDockWidgetArea);
    m_rejectedDock
        = addDock(QStringLiteral("rejectedDock"), tr("Rejected / Notices"), m_rejected, Qt::BottomDockWidgetArea);
    tabifyDockWidget(requests, m_rejectedDock);
    m_workflow = new WorkflowPanel(m_state, this);
    m_workflowDock = addDock(QStringLiteral("workflowDock"), tr("Workflow"), m_workflow, Qt::BottomDockWidgetArea);
    tabifyDockWidget(requests, m_workflowDock);
    m_classes = new ClassTablePanel(m_state, this);
    tabifyDockWidget(requests,
                     addDock(QStringLiteral("classesDock"), tr("Classes"), m_classes, Qt::BottomDockWidgetArea));
    m_exceedance = new ExceedancePanel(m_state, this);
    connect(m_exceedance, &ExceedancePanel::workflowWindowRequested, this, &MainWindow::openWindowOn);
    tabifyDockWidget(
        requests, addDock(QStringLiteral("exceedanceDock"), tr("Exceedance"), m_exceedance, Qt::BottomDockWidgetArea));
    requests->raise();
    // Right: distributions (tabbed with the report) above the request detail.
    QDockWidget *distributions
        = addDock(QStringLiteral("distributionsDock"), tr("Distributions"), m_distributions, Qt::RightDockWidgetArea);
    m_detailDock = addDock(QStringLiteral("detailDock"), tr("Request Detail"), m_detail, Qt::RightDockWidgetArea);
    splitDockWidget(distributions, m_detailDock, Qt::Vertical);
    QDockWidget *report
        = addDock(QStringLiteral("reportDock"), tr("Profile Report"), m_report, Qt::RightDockWidgetArea);
    tabifyDockWidget(distributions, report);
    distributions->raise();
    resizeDocks({distributions}, {520}, Qt::Horizontal);
    resizeDocks({requests}, {340}, Qt::Vertical);
    resizeDocks({distributions, m_detailDock}, {600, 260}, Qt::Vertical);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open\u2026"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open trace"), QFileInfo(m_currentFile).absolutePath(),
            tr("Traces and sessions (*.jsonl *.json *.ndjson *.csv *.tracelane);;All files (*)"));
        openFiles(paths);
    });
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Compare &With\u2026"), m_compare, &CompareWiring::chooseCandidate)
        ->setToolTip(tr("Put a second trace (the candidate) beside the loaded one (the baseline)"));
    m_clickHouse->addFileActions(file);
    file->addSeparator();
    m_live->addFileActions(file);
    file->addSeparator();
    m_reloadAction = file->addAction(tr("&Reload"), this, &MainWindow::reload);
    m_reloadAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_closeAction = file->addAction(tr("&Close"), this, &MainWindow::closeTrace);
    m_closeAction->setShortcut(QKeySequence::Close);
    m_cancelAction = file->addAction(tr("Cancel &Loading"), this, &MainWindow::cancelLoad);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("&Export Rejected Records\u2026"), m_rejected, &RejectedRecordsPanel::exportWithDialog);
    m_review->addFileActions(file);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);
    updateRecentMenu();

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *fullScreen = view->addAction(tr("&Full Screen"), this, [this](bool on) {
        setWindowState(on ? windowState() | Qt::WindowFullScreen : windowState() & ~Qt::WindowFullScreen);
    });
    fullScreen->setCheckable(true);
    fullScreen->setShortcut(QKeySequence(Qt::Key_F11));
    m_panelsMenu = view->addMenu(tr("&Panels"));
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_panelsMenu->addAction(dock->toggleViewAction());
    view->addAction(tr("Reset &Layout"), this, [this] { m_dockLayout->reset(); });
    view->addSeparator();
    view->addAction(m_clickHouse->allInViewAction());
    m_swimlanes->addControl(m_clickHouse->allInViewAction());
    QMenu *appearance = view->addMenu(tr("&Appearance"));
    auto *modes = new QActionGroup(this);
    const std::array<std::pair<Appearance::Mode, QString>, 3> choices = {{
        {Appearance::Mode::FollowSystem, tr("Follow &System")},
        {Appearance::Mode::Light, tr("&Light")},
        {Appearance::Mode::Dark, tr("&Dark")},
    }};
    for (const auto &[mode, label] : choices) {
        QAction *action = appearance->addAction(label, this, [this, mode = mode] {
            Appearance::apply(mode);
            if (m_persistent)
                Appearance::save(mode);
        });
        action->setCheckable(true);
        action->setChecked(mode == Appearance::saved());
        modes->addAction(action);
    }

    QMenu *go = menuBar()->addMenu(tr("&Go"));
    go->addAction(m_exceedance->nextAction());
    go->addAction(m_exceedance->previousAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { KeyboardShortcutsDialog(this).exec(); })
        ->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Tracelane"), this, [this] { AboutDialog::show(this); });

    QToolBar *tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->addAction(open);
    tools->addAction(m_reloadAction);
    tools->addSeparator();
    tools->addWidget(new QLabel(tr(" Observation boundary: "), this));
    m_boundary = new QComboBox(this);
    m_boundary->setObjectName(QStringLiteral("boundary"));
    for (const Boundary boundary : {Boundary::Client, Boundary::Server, Boundary::Engine})
        m_boundary->addItem(QStringLiteral("%1 (%2)").arg(boundaryKey(boundary), boundarySpan(boundary)),
                            int(boundary));
    m_boundary->setToolTip(tr("Where TTFT is measured from; every figure names it"));
    tools->addWidget(m_boundary);
    connect(m_boundary, &QComboBox::activated, this,
            [this] { m_state->setBoundary(static_cast<Boundary>(m_boundary->currentData().toInt())); });
    connect(m_state, &ViewState::boundaryChanged, this,
            [this](Boundary boundary) { m_boundary->setCurrentIndex(m_boundary->findData(int(boundary))); });
}

void MainWindow::createStatusBar()
{
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("statusMessage"));
    m_progress = new LoadProgressBar(this);
    m_progress->hide();
    connect(m_progress, &LoadProgressBar::cancelRequested, this, &MainWindow::cancelLoad);
    m_statusRequests = new QLabel(this);
    m_statusRejected = new QLabel(this);
    m_statusSpan = new QLabel(this);
    m_statusBoundary = new QLabel(this);
    m_statusRequests->setObjectName(QStringLiteral("statusRequests"));
    m_statusRejected->setObjectName(QStringLiteral("statusRejected"));
    m_statusSpan->setObjectName(QStringLiteral("statusSpan"));
    m_statusBoundary->setObjectName(QStringLiteral("statusBoundary"));
    statusBar()->addWidget(m_message, 1);
    statusBar()->addWidget(m_progress);
    for (QLabel *label : {m_statusRequests, m_statusRejected, m_statusSpan, m_statusBoundary})
        statusBar()->addPermanentWidget(label);
    m_statusRejected->setToolTip(tr("Listed in View \u2192 Panels \u2192 Rejected / Notices"));
    connect(m_state, &ViewState::selectionChanged, this, &MainWindow::updateStatus);
}

MainWindow *MainWindow::openWindowOn(const QString &url)
{
    auto *window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setPersistent(false);
    window->resize(size());
    window->show();
    window->openFile(url);
    emit windowOpened(window);
    return window;
}

void MainWindow::setPersistent(bool persistent)
{
    m_persistent = persistent;
}

void MainWindow::restoreSettings()
{
    if (!m_persistent)
        return;
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        m_dockLayout->keepRestoredLayout();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_persistent) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
    }
    cancelLoad();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), [](const QUrl &url) { return url.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    }
    // Shift held: the dropped file is a candidate for the loaded baseline.
    if ((event->modifiers() & Qt::ShiftModifier) && store() && !paths.isEmpty()) {
        compareWith(paths.first());
        event->acceptProposedAction();
        return;
    }
    openFiles(paths);
    event->acceptProposedAction();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_persistent ? RecentFiles::load() : QStringList();
    for (int i = 0; i < files.size(); ++i) {
        const QString &path = files[i];
        QAction *action
            = m_recentMenu->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(TraceSource::displayName(path)), this,
                                      [this, path] { openFile(path); });
        action->setToolTip(path);
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear List"), this, [this] {
        RecentFiles::clear();
        updateRecentMenu();
    });
}

void MainWindow::openFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    if (m_review->openIfSession(paths.first()))
        return;
    openFile(paths.first());
    // One trace at a time: say which files were not opened, and keep saying
    // it until the user closes the banner (the status bar is overwritten).
    if (paths.size() > 1) {
        QStringList names;
        for (qsizetype i = 1; i < paths.size(); ++i)
            names.append(QFileInfo(paths[i]).fileName());
        m_openNote = tr("Opened %1 only; %2 not opened (%3): Tracelane shows one trace at a time. "
                        "Open another with File \u2192 Open.")
                         .arg(QFileInfo(paths.first()).fileName(),
                              CountText::of(names.size(), tr("other file was"), tr("other files were")),
                              names.join(QStringLiteral(", ")));
        m_banner->showMessage(m_openNote);
    }
}

void MainWindow::openFile(const QString &path)
{
    m_message->clear();
    m_banner->clearMessage();
    m_openNote.clear();
    m_load->start(path); // drops a load still running: its result never arrives
    m_progress->start(TraceSource::displayName(path));
    m_progress->show();
    m_cancelAction->setEnabled(true);
    m_progressTimer->start();
}

void MainWindow::reload()
{
    if (!m_currentFile.isEmpty())
        openFile(m_currentFile);
}

void MainWindow::cancelLoad()
{
    m_compare->cancel();
    if (!m_load->cancel())
        return;
    // Final: the load is dropped now, whatever its worker still does.
    stopLoadFeedback();
    m_message->setText(
        tr("Loading %1 was cancelled; the previous view is kept.").arg(TraceSource::displayName(m_load->path())));
    emit loadFinished(false);
}

void MainWindow::closeTrace()
{
    if (m_load->cancel())
        stopLoadFeedback();
    m_currentFile.clear();
    m_spanNs = 0;
    m_state->setStore(nullptr);
    setWindowTitle(QStringLiteral("Tracelane"));
    m_message->setText(tr("Closed."));
}

void MainWindow::updateProgress()
{
    if (m_load->isRunning())
        m_progress->setProgress(m_load->fraction(), m_load->records(), m_load->elapsedMs());
}

void MainWindow::stopLoadFeedback()
{
    m_progressTimer->stop();
    m_progress->hide();
    m_cancelAction->setEnabled(false);
}

void MainWindow::finishLoad(const LoadOutcome &outcome, const QString &path)
{
    stopLoadFeedback();
    const LoadResult &result = outcome.result;
    const QString name = TraceSource::displayName(path);
    // A file that is not a trace (or is empty) loads "fine" into nothing: the
    // trace on screen stays, and the banner says why the new one did not load.
    const QString why = LoadVerdict::whyNothingLoaded(result, name);
    if (!why.isEmpty()) {
        QString message = why;
        if (m_state->store())
            message += tr(" The trace on screen is kept.");
        m_message->setText(message);
        if (!m_openNote.isEmpty())
            message += QLatin1Char('\n') + m_openNote;
        if (result.sampleThatFits > 1 && !result.cancelled && TraceSource::isUrl(path)) {
            // A table too large to hold: one click opens a sample that fits.
            const QString sample = ClickHouseSource::withSample(path, result.sampleThatFits);
            m_banner->showMessage(message, tr("Open a 1-in-%1 sample").arg(result.sampleThatFits),
                                  [this, sample] { openFile(sample); });
        } else {
            m_banner->showMessage(message);
        }
        if (!m_state->store())
            m_report->showMessage(why);
        emit loadFinished(false);
        return;
    }
    // A reload (F5) comes back to the slow request being looked at.
    const bool reloaded = TraceSource::canonical(path) == m_currentFile;
    const ExceedancePanel::MemberKey member = reloaded ? m_exceedance->memberKey() : ExceedancePanel::MemberKey{};
    m_currentFile = TraceSource::canonical(path);
    m_spanNs = outcome.lastNs - outcome.firstNs;
    m_state->setStore(result.store);
    if (member.position >= 0)
        m_exceedance->restoreMember(member);
    setWindowTitle(tr("%1 \u2014 Tracelane").arg(name));
    m_message->setText(tr("Loaded %1 in %2 s.").arg(name, QLocale().toString(m_load->elapsedMs() / 1000.0, 'f', 2)));
    if (m_persistent) {
        RecentFiles::add(path);
        updateRecentMenu();
    }
    emit loadFinished(true);
}

void MainWindow::updateReport()
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store) {
        m_reportJob.cancel();
        m_reportInSight->markDone();
        m_report->showMessage(tr("Open a trace with File \u2192 Open (Ctrl+O) or drop one on the window."));
        return;
    }
    // A sample's report is its population's: the server's heaviest reads,
    // asked only once the tab is looked at, so they do not hold up the
    // class table and exceedance set asked at the same time.
    const bool fromServer = !store->serverUrl.isEmpty();
    if (fromServer) {
        m_reportJob.cancel();
        m_report->showMessage(tr("The whole population's report is computed by the server once this tab is "
                                 "looked at."));
    }
    m_reportInSight->run(fromServer);
}

void MainWindow::computeReport()
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store)
        return;
    const Boundary boundary = m_state->boundary();
    const QString label = TraceSource::displayName(m_currentFile);
    m_reportJob.start(
        [store, boundary, label](const std::atomic<bool> *cancel) {
            return ServerFigures::reportOf(*store, boundary, label, QStringLiteral("trace replay"), cancel);
        },
        [this, store](const ProfileReport &report) { m_report->showReport(report, *store); });
}

void MainWindow::updateStatus()
{
    const QLocale locale;
    const auto store = m_state->store();
    const qint64 requests = store ? store->requests.rowCount() : 0;
    const qint64 rejected = store ? qint64(store->rejected.size()) : 0;
    QString requestText = CountText::of(requests, tr("request"), tr("requests"));
    if (m_state->hasSlice())
        requestText
            = tr("%1 of %2 in filter")
                  .arg(locale.toString(m_state->scopeSize()), CountText::of(requests, tr("request"), tr("requests")));
    if (!m_state->selection().isEmpty())
        requestText += tr(", %1 selected").arg(locale.toString(m_state->selection().size()));
    if (store && store->sampleOneIn > 1)
        requestText += tr(" (a 1-in-%1 sample)").arg(store->sampleOneIn);
    m_statusRequests->setText(requestText);
    m_statusRejected->setText(tr("%1 rejected").arg(locale.toString(rejected)));
    m_statusSpan->setText(store ? tr("span %1").arg(SwimlaneCoordinates::formatDuration(m_spanNs)) : QString());
    m_statusBoundary->setText(tr("%1 boundary").arg(boundaryKey(m_state->boundary())));
}

void MainWindow::setTraceSpan(qint64 spanNs)
{
    m_spanNs = spanNs;
    updateStatus();
}

QString MainWindow::statusSummary() const
{
    return QStringList{m_statusRequests->text(), m_statusRejected->text(), m_statusSpan->text(),
                       m_statusBoundary->text()}
        .join(QStringLiteral(" | "));
}

bool MainWindow::isBusy() const
{
    return isLoading() || m_swimlanes->isLayingOut() || m_requestTable->isQueryRunning()
        || m_distributions->isComputing() || m_reportJob.isRunning() || m_classes->isComputing()
        || m_exceedance->isComputing() || m_workflow->isBusy() || m_review->isBusy() || m_compare->isBusy()
        || m_streams->isBusy();
}

bool MainWindow::showPanel(const QString &name)
{
    // The dock's object name (classesDock) or the title on its tab (Classes), any case.
    auto *dock = findChild<QDockWidget *>(name);
    for (auto *candidate : findChildren<QDockWidget *>()) {
        if (!dock && candidate->windowTitle().remove(QLatin1Char('&')).compare(name, Qt::CaseInsensitive) == 0)
            dock = candidate;
    }
    if (!dock)
        return false;
    dock->show();
    dock->raise();
    m_pinnedDock = dock->objectName();
    return true;
}

QString MainWindow::bannerText() const
{
    return m_banner->isVisibleTo(this) ? m_banner->text() : QString();
}

std::shared_ptr<const TraceStore> MainWindow::store() const
{
    return m_state->store();
}

ComparePanel *MainWindow::comparePanel() const
{
    return m_compare->panel();
}

void MainWindow::compareWith(const QString &path)
{
    m_compare->compareWith(path);
}

void MainWindow::tell(const QString &message, bool alsoInBanner)
{
    m_message->setText(message);
    if (alsoInBanner)
        m_banner->showMessage(message);
}
