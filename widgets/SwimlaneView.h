#pragma once

#include "LatestJob.h"
#include "analysis/lanes/LaneOrder.h"
#include "analysis/workflows/WorkKind.h"

#include <QWidget>

#include <array>
#include <memory>

class LaneActivity;
class LaneLayout;
class OverviewStrip;
class PhaseLegend;
class QAction;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QScrollBar;
class QToolButton;
class SwimlaneCanvas;
struct StallMarks;
class TimeRuler;
class ViewState;
class WorkActivity;
class WorkflowLanes;

// The swimlane panel: controls (time axis, lane order, grouping), legend,
// time ruler, the lanes, a lane scroll bar and the overview strip. It lays
// lanes out off the GUI thread whenever the trace, slice or order changes,
// and otherwise just wires its parts to the ViewState.
class SwimlaneView : public QWidget
{
    Q_OBJECT
public:
    explicit SwimlaneView(ViewState *state, QWidget *parent = nullptr);
    ~SwimlaneView() override;

    SwimlaneCanvas *canvas() const { return m_canvas; }
    TimeRuler *ruler() const { return m_ruler; }
    const LaneOrder &laneOrder() const { return m_order; }
    void setLaneOrder(const LaneOrder &order);
    bool isLayingOut() const { return m_job.isRunning() || m_workflowJob.isRunning(); }
    PhaseLegend *legend() const { return m_legend; }
    // Stalls to hatch on single lanes (null: none); the legend names them.
    void setStallMarks(std::shared_ptr<const StallMarks> marks);
    // The lane counter is on a row of its own (the window is too narrow to
    // hold it beside the controls).
    bool laneInfoHasOwnRow() const;
    // A button for `action` among the controls, after Fit, shown while the
    // action is visible (an action the window adds: it knows the source).
    QToolButton *addControl(QAction *action);

signals:
    // A new lane layout is on screen.
    void layoutReady();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct LayoutResult
    {
        std::shared_ptr<const LaneLayout> layout;
        std::shared_ptr<const LaneActivity> absoluteProfile;
        std::shared_ptr<const LaneActivity> alignedProfile;
        std::shared_ptr<const WorkActivity> absoluteKinds;
        std::shared_ptr<const WorkActivity> alignedKinds;
    };

    void rebuildLayout();
    // Workflow lanes (critical path by kind) are computed once per store.
    void rebuildWorkflowLanes();
    void applyWorkflowLanes(std::shared_ptr<const WorkflowLanes> lanes);
    void updateLegend();
    void applyLayout(const LayoutResult &result);
    void fillOrderCombos();
    void orderFromControls();
    void updateOverview();
    void updateLaneInfo();
    void placeLaneInfo();
    void syncScrollBar();

    ViewState *m_state = nullptr;
    LaneOrder m_order;
    LatestJob m_job{this};
    LatestJob m_workflowJob{this};
    LayoutResult m_current;
    // The next layout shows other lanes (another trace or slice), not the
    // same capture grown by a live refresh.
    bool m_lanesReplaced = true;
    std::shared_ptr<const WorkflowLanes> m_workflows;
    // The kinds the legend listed before a live refresh, listed until the
    // refreshed store's lanes come (all false: none kept).
    std::array<bool, kWorkKindCount> m_refreshKinds{};

    QComboBox *m_axis = nullptr;
    QComboBox *m_orderKey = nullptr;
    QCheckBox *m_descending = nullptr;
    QComboBox *m_groupBy = nullptr;
    QLabel *m_laneInfo = nullptr;
    QToolButton *m_fit = nullptr;
    QHBoxLayout *m_controls = nullptr;
    QHBoxLayout *m_infoRow = nullptr; // the lane counter when the controls leave no room
    PhaseLegend *m_legend = nullptr;
    TimeRuler *m_ruler = nullptr;
    SwimlaneCanvas *m_canvas = nullptr;
    QScrollBar *m_scrollBar = nullptr;
    OverviewStrip *m_overview = nullptr;
    bool m_syncing = false;
};
