#pragma once

#include "LatestJob.h"
#include "TraceLoadJob.h"

#include <QMainWindow>
#include <QSet>

#include <memory>

class ClassTablePanel;
class ClickHouseWiring;
class ComparePanel;
class CompareWiring;
class DistributionPanel;
class DockLayout;
class ExceedancePanel;
class InSightWork;
class LiveWiring;
class LoadProgressBar;
class MessageBanner;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QTimer;
class RejectedRecordsPanel;
class ReportView;
class RequestDetailPanel;
class RequestTablePanel;
class ReviewWiring;
class StreamsWiring;
class SwimlaneView;
class ViewState;
class WorkflowPanel;

// Wires the views to one ViewState and the loaded trace. Computes nothing
// itself: loading and analyses run in the model on worker threads, views
// draw. Panels are docks whose layout, the window geometry and the recent
// files persist in QSettings.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Off for headless screenshots and tests: no settings read or written.
    void setPersistent(bool persistent);
    bool isPersistent() const { return m_persistent; }
    void restoreSettings();

    void openFile(const QString &path);
    // Loads `path` off the GUI thread as the candidate to compare the loaded
    // trace (the baseline) with, and shows the Compare dock.
    void compareWith(const QString &path);
    void openFiles(const QStringList &paths);
    // A window of its own on a server's URL: one workflow (a population's
    // URL with trace=) opened from a slow workflow the held sample lacks, or
    // every request sent in the lanes' time range (ClickHouseWiring); not
    // persistent, and closed with no trace of it in this window's settings.
    MainWindow *openWindowOn(const QString &url);
    void reload();
    void closeTrace();
    void cancelLoad();

    std::shared_ptr<const TraceStore> store() const;
    ViewState *viewState() const { return m_state; }
    SwimlaneView *swimlanes() const { return m_swimlanes; }
    RequestTablePanel *requestTable() const { return m_requestTable; }
    DistributionPanel *distributions() const { return m_distributions; }
    RejectedRecordsPanel *rejectedRecords() const { return m_rejected; }
    RequestDetailPanel *requestDetail() const { return m_detail; }
    WorkflowPanel *workflowPanel() const { return m_workflow; }
    ClassTablePanel *classTable() const { return m_classes; }
    ExceedancePanel *exceedance() const { return m_exceedance; }
    ReviewWiring *review() const { return m_review; }
    ComparePanel *comparePanel() const;
    StreamsWiring *streams() const { return m_streams; }
    LiveWiring *live() const { return m_live; }
    ClickHouseWiring *clickHouse() const { return m_clickHouse; }
    // Shows and raises the dock with this object name (and keeps it in front
    // when a trace loads); false if there is none.
    bool showPanel(const QString &name); // a dock by object name or tab title
    LoadProgressBar *loadProgress() const { return m_progress; }
    bool isLoading() const { return m_load->isRunning(); }
    // True while any view still computes (layout, query, distribution).
    bool isBusy() const;
    QString statusSummary() const;
    QString currentFile() const { return m_currentFile; }
    // The time the shown trace spans, for the status bar (a live store sets it).
    void setTraceSpan(qint64 spanNs);
    // A panel in a dock (scrolling inside it) under a stable object name.
    QDockWidget *addDock(const QString &objectName, const QString &title, QWidget *widget, Qt::DockWidgetArea area);
    // What the window must tell the user (a file that did not load, files
    // not opened); empty when the banner is closed.
    QString bannerText() const;
    // `message` in the status bar, and in the banner above the lanes too
    // when the user must see it (a file that did not load).
    void tell(const QString &message, bool alsoInBanner = false);
    // The default dock arrangement (null until every dock exists).
    DockLayout *dockLayout() const { return m_dockLayout; }

signals:
    // Emitted once a load has finished, failed or been cancelled.
    void loadFinished(bool ok);
    void windowOpened(MainWindow *window);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createDocks();
    void createActions();
    void createStatusBar();
    void updateRecentMenu();
    void finishLoad(const LoadOutcome &outcome, const QString &path);
    void stopLoadFeedback();
    void rescueHiddenFocus();
    void updateProgress();
    void updateStatus();
    void updateReport();
    void computeReport();

    ViewState *m_state = nullptr;
    bool m_persistent = true;
    QString m_currentFile;
    QString m_pinnedDock; // --panel: raised again after every load
    qint64 m_spanNs = 0;
    TraceLoadJob *m_load = nullptr;
    QString m_openNote; // files given together that were not opened

    SwimlaneView *m_swimlanes = nullptr;
    RequestTablePanel *m_requestTable = nullptr;
    DistributionPanel *m_distributions = nullptr;
    RejectedRecordsPanel *m_rejected = nullptr;
    RequestDetailPanel *m_detail = nullptr;
    ReportView *m_report = nullptr;
    InSightWork *m_reportInSight = nullptr; // a server's report waits to be looked at
    LatestJob m_reportJob{this};
    QDockWidget *m_detailDock = nullptr;
    WorkflowPanel *m_workflow = nullptr;
    QDockWidget *m_workflowDock = nullptr;
    QDockWidget *m_rejectedDock = nullptr;
    QDockWidget *m_shownDock = nullptr; // the dock most recently brought to the front
    QSet<QDockWidget *> m_docksBehind;  // tabbed behind another, or closed
    ClassTablePanel *m_classes = nullptr;
    ExceedancePanel *m_exceedance = nullptr;
    ReviewWiring *m_review = nullptr;
    CompareWiring *m_compare = nullptr;
    StreamsWiring *m_streams = nullptr;
    LiveWiring *m_live = nullptr;
    ClickHouseWiring *m_clickHouse = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_panelsMenu = nullptr;
    QComboBox *m_boundary = nullptr;
    QAction *m_reloadAction = nullptr;
    QAction *m_closeAction = nullptr;
    QAction *m_cancelAction = nullptr;

    LoadProgressBar *m_progress = nullptr;
    QLabel *m_message = nullptr;
    MessageBanner *m_banner = nullptr;
    QLabel *m_statusRequests = nullptr;
    QLabel *m_statusRejected = nullptr;
    QLabel *m_statusSpan = nullptr;
    QLabel *m_statusBoundary = nullptr;
    QTimer *m_progressTimer = nullptr;
    DockLayout *m_dockLayout = nullptr; // the default arrangement, View → Reset Layout
};
