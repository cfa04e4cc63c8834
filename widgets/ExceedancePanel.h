#pragma once

#include "LatestJob.h"
#include "PopulationRankings.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/workflows/PathAttribution.h"
#include "analysis/workflows/PathTree.h"

#include <QWidget>

#include <memory>

class ColumnCache;
class InSightWork;
class MemberComparisonModel;
class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class RequestTimeline;
class SetComparisonView;
struct ServerExceedance;
class TraceStore;
class ViewState;

// The Exceedance dock: the requests of the current scope whose metric (the
// shared one, at the shared boundary) is above a percentile (default p95),
// stepped through one by one with Next / Previous (N / P): the current
// member's timeline to scale and where it sits among the rest on every
// phase and attribute; beside it, how the set differs from the rest.
//
// Writes the set and the cursor to the ViewState, so the swimlanes mark
// the members and highlight and scroll to the current one. The analysis
// runs off the GUI thread; stepping only reads it.
class ExceedancePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ExceedancePanel(ViewState *state, QWidget *parent = nullptr);
    ~ExceedancePanel() override;

    // Window-wide N / P; they do not fire while a text field has the focus.
    QAction *nextAction() const { return m_next; }
    QAction *previousAction() const { return m_previous; }
    void stepNext();
    void stepPrevious();

    void setPercentile(double q); // 0.5 .. 0.999
    double percentile() const;
    void setOrder(ExceedanceOrder order);
    // How many of a sample's population's slowest the server lists to step through.
    static constexpr int kServerMembers = 200;

    // Position of the shown member in the set's order; -1 for none.
    qsizetype position() const { return m_position; }

    // The member being looked at, by request id and position, so it can be
    // found again in a reloaded trace.
    struct MemberKey
    {
        QString requestId;
        qsizetype position = -1;
    };
    MemberKey memberKey() const;
    // Once the next analysis is ready, steps to the member with that request
    // id, or else to the same position (clamped to the set).
    void restoreMember(const MemberKey &key);
    const std::shared_ptr<const ExceedanceAnalysis> &analysis() const { return m_analysis; }
    bool isComputing() const { return m_job.isRunning() || m_pathJob.isRunning(); }
    // Workflow traces: the set's critical-path attribution and merged paths
    // (null for flat requests or until computed).
    const std::shared_ptr<const PathAttribution> &pathAttribution() const { return m_pathAttribution; }

    MemberComparisonModel *memberModel() const { return m_member; }
    SetComparisonView *comparison() const { return m_comparison; }
    RequestTimeline *timeline() const { return m_timeline; }
    QLabel *summaryLabel() const { return m_summary; }
    QLabel *positionLabel() const { return m_positionText; }
    // Shown while a fetched member is a workflow the sample does not hold.
    QPushButton *openWorkflowButton() const { return m_openWorkflow; }

signals:
    void analysisReady();
    // The critical-path attribution of a workflow trace is shown.
    void pathAttributionReady();
    void memberShown(qsizetype position);
    // On a sample: the server ranked the population's features (or failed to).
    void populationRanked();
    // The fetched member's workflow, asked to be opened on its own: the
    // population's URL with trace= (the window opens it beside this one).
    void workflowWindowRequested(const QString &url);

private:
    struct Result
    {
        std::shared_ptr<const ExceedanceAnalysis> analysis;
        qint64 longestMemberNs = 0;
        // Held a sample: the set's threshold, sizes and phase attribution
        // over the whole population, from the server; or why not.
        std::shared_ptr<const ServerExceedance> server;
        QString serverError;
        std::vector<qint32> serverMemberRows; // each listed member's held row, or -1
    };

    struct PathResult
    {
        std::shared_ptr<const WorkflowPaths> paths;
        std::shared_ptr<const PathAttribution> attribution;
        std::shared_ptr<PathTree> tree;
    };

    void recompute();
    void apply(Result result);
    void recomputePaths();
    void applyPaths(PathResult result);
    void step(int direction);
    // N / P over the population's slowest (the server's listed members):
    // a held one is the cursor's, another one's row is fetched.
    void stepServer(int direction);
    void fetchServerMember();
    void showFetched();
    QString serverPositionText(const QString &requestId, double value, const QString &where) const;
    void showMember(qint32 row);
    void stepToPending();
    void updateSummary();
    void present();

    ViewState *m_state = nullptr;
    std::shared_ptr<ColumnCache> m_cache;
    LatestJob m_job{this};
    std::shared_ptr<const ExceedanceAnalysis> m_analysis;
    std::shared_ptr<const ServerExceedance> m_server; // see Result
    QString m_serverError;
    std::vector<qint32> m_serverMemberRows;
    qsizetype m_serverPosition = -1; // in m_server->members; -1 for none
    // On a sample: the population's feature rankings, asked of the server
    // once its set is shown; until then (or when it fails) the sample's.
    PopulationRankings *m_rankings = nullptr;
    LatestJob m_fetchJob{this};
    std::shared_ptr<const TraceStore> m_fetched; // the looked-at member's row, when not held
    qsizetype m_position = -1;
    MemberKey m_pendingMember;
    LatestJob m_pathJob{this};
    std::shared_ptr<const WorkflowPaths> m_paths; // every workflow's path, once per trace
    std::shared_ptr<const PathAttribution> m_pathAttribution;

    QComboBox *m_metric = nullptr;
    QDoubleSpinBox *m_percentile = nullptr;
    QComboBox *m_order = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_previousButton = nullptr;
    QPushButton *m_nextButton = nullptr;
    QLabel *m_positionText = nullptr;
    QPushButton *m_openWorkflow = nullptr;
    RequestTimeline *m_timeline = nullptr;
    MemberComparisonModel *m_member = nullptr;
    SetComparisonView *m_comparison = nullptr;
    QAction *m_next = nullptr;
    QAction *m_previous = nullptr;
    // After a live refresh, what the panel shows of a new set (the set
    // comparison, summary, member and path attribution) waits until it is
    // in sight; the set itself (the swimlanes' marks, N / P) never does.
    InSightWork *m_present = nullptr;
    bool m_presentMayWait = false;
};
