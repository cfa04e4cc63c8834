#pragma once

#include "LaneRaster.h"
#include "LatestJob.h"
#include "SwimlaneCoordinates.h"
#include "SwimlaneOverlay.h"

#include <QImage>
#include <QPoint>
#include <QWidget>

#include <memory>

class LaneLayout;
class QRubberBand;
class WorkflowLanes;
struct StallMarks;
class ViewState;

// The lanes themselves: draws the cached frame (LaneRaster) plus an overlay
// of highlights (selection, current request, exceedance members, hover) that
// never invalidates the cache, and turns mouse and keys into changes of the
// time window (shared, in ViewState) and lane window (this view's own).
//
// Mouse: wheel zooms time around the cursor, Shift+wheel zooms lanes,
// Ctrl+wheel scrolls lanes; drag pans; right-drag or Shift+drag zooms to a
// rectangle; click selects (Ctrl toggles), double-click opens the request
// (a workflow's Gantt).
// Keys: + / - zoom time, Ctrl+Up / Ctrl+Down zoom lanes, arrows pan,
// PgUp / PgDown page lanes, Home / End go to the trace's start / end,
// Ctrl+Home / Ctrl+End to the first / last lane, F fits everything,
// Enter opens the current request, Esc clears the selection.
class SwimlaneCanvas : public QWidget
{
    Q_OBJECT
public:
    // One key press zooms time or lanes by this factor (or its inverse).
    static constexpr double kKeyZoom = 0.7;

    explicit SwimlaneCanvas(ViewState *state, QWidget *parent = nullptr);
    ~SwimlaneCanvas() override;

    // `grownCapture`: the layout of a live capture's refresh (the same lanes
    // and more): a zoomed view keeps its lanes and time window, one showing
    // everything follows the growth. Otherwise a different set of lanes starts
    // over at the whole trace.
    void setLaneLayout(std::shared_ptr<const LaneLayout> layout, bool grownCapture = false);
    const std::shared_ptr<const LaneLayout> &laneLayout() const { return m_layout; }
    // Workflow lanes of the current store: rows that are workflows are drawn
    // by the kind on their critical path (null until computed, or none).
    void setWorkflowLanes(std::shared_ptr<const WorkflowLanes> lanes);
    const std::shared_ptr<const WorkflowLanes> &workflowLanes() const { return m_workflows; }

    SwimlaneCoordinates::LaneWindow laneWindow() const { return m_lanes; }
    void setLaneWindow(SwimlaneCoordinates::LaneWindow window);
    // The whole time span the current axis can show.
    TimeWindow timeBounds() const;
    static TimeWindow boundsFor(const LaneLayout &layout, TimeAxis axis);
    qint64 tickOrigin() const;

    void fitAll();
    void zoomTime(double factor, double anchorX);
    void zoomLanes(double factor, double anchorY);
    void scrollLanes(double lanes);
    void panTime(double fractionOfWindow);
    void zoomToRect(const QRect &rect);
    void ensureSlotVisible(qint64 slot);
    // Moves (or, if it does not fit, widens) the time window so the request's
    // lane from its first to its last observed stamp is on screen.
    void ensureRowTimeVisible(qint32 row);

    // Slot under a widget position, or -1.
    qint64 slotAt(QPoint pos) const;
    // Tooltip for a widget position, as shown on hover (empty: none).
    QString toolTipAt(QPoint pos) const;
    bool showsSingleLanes() const;
    // The group names drawn over the lanes, where they are drawn.
    std::vector<SwimlaneOverlay::GroupLabel> groupLabels() const;

    // Number of times the cached frame was rebuilt (tests, benchmarks).
    int frameRenders() const { return m_frameRenders; }
    // Renders the frame for the current state now, on this thread.
    QImage renderFrame();
    // Frames that aggregate more than this many lanes render on a worker;
    // until one is ready, paint shows the previous frame moved and scaled to
    // the new window. 0 renders every frame on the GUI thread.
    void setBackgroundFrameLanes(qint64 lanes) { m_backgroundFrameLanes = lanes; }
    bool isRenderingFrame() const { return m_frameJob.isRunning(); }
    // Stalls to mark on single lanes (null: none); the overlay draws them.
    void setStallMarks(std::shared_ptr<const StallMarks> marks);
    const StallMarks *stallMarks() const { return m_stallMarks.get(); }

signals:
    // A frame rendered in the background has arrived.
    void frameReady();

    void laneWindowChanged(SwimlaneCoordinates::LaneWindow window);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    LaneFrameKey frameKey() const;
    bool rendersInBackground(const LaneFrameKey &key) const;
    void drawStaleFrame(QPainter &painter, const LaneFrameKey &key) const;
    void selectAt(QPoint pos, bool toggle);
    void setHoverSlot(qint64 slot);
    SwimlaneOverlay overlay(const SwimlaneColors &colors) const;
    qint64 minimumDuration() const;

    ViewState *m_state = nullptr;
    std::shared_ptr<const LaneLayout> m_layout;
    std::shared_ptr<const WorkflowLanes> m_workflows;
    SwimlaneCoordinates::LaneWindow m_lanes;
    LaneFrameKey m_cacheKey;
    QImage m_cache;
    int m_frameRenders = 0;
    qint64 m_backgroundFrameLanes = 100'000;
    LatestJob m_frameJob{this};
    qint64 m_hoverSlot = -1;
    std::shared_ptr<const StallMarks> m_stallMarks;

    enum class Drag { None, Pan, RubberBand };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    bool m_moved = false;
    TimeWindow m_pressWindow;
    SwimlaneCoordinates::LaneWindow m_pressLanes;
    QRubberBand *m_rubberBand = nullptr;
};
