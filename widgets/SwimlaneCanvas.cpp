#include "SwimlaneCanvas.h"

#include "CountText.h"
#include "RequestText.h"
#include "SwimlaneOverlay.h"
#include "ViewState.h"
#include "WorkflowLaneText.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/lanes/WorkflowLanes.h"
#include "store/TraceStore.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QPainter>
#include <QRubberBand>
#include <QToolTip>

#include <cmath>

using SwimlaneCoordinates::LaneWindow;

namespace {

constexpr double kWheelZoomPerStep = 0.8;
constexpr double kMinLanesVisible = 5.0;
// Half the narrowest window (minimumDuration, 1 µs): a trace of one instant
// still opens on a window the zoom accepts.
constexpr qint64 kMinimumMarginNs = 500;
constexpr int kDragThresholdPx = 4;

} // namespace

SwimlaneCanvas::SwimlaneCanvas(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_rubberBand(new QRubberBand(QRubberBand::Rectangle, this))
{
    setObjectName(QStringLiteral("swimlaneCanvas"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 120);
    auto repaint = [this] { update(); };
    connect(state, &ViewState::timeWindowChanged, this, repaint);
    connect(state, &ViewState::selectionChanged, this, repaint);
    connect(state, &ViewState::exceedanceChanged, this, repaint);
    connect(state, &ViewState::bookmarksChanged, this, repaint);
    connect(state, &ViewState::exceedanceCursorChanged, this, [this](qint32 row) {
        // Stepping through slow requests shows each one whole, zoomed in or not.
        ensureRowTimeVisible(row);
        update();
    });
    connect(state, &ViewState::currentRowChanged, this, [this](qint32 row) {
        if (m_layout)
            ensureSlotVisible(m_layout->slotOf(row));
        update();
    });
    connect(state, &ViewState::timeAxisChanged, this, [this] { fitAll(); });
}

SwimlaneCanvas::~SwimlaneCanvas() = default;

void SwimlaneCanvas::setLaneLayout(std::shared_ptr<const LaneLayout> layout, bool grownCapture)
{
    const qint64 previousSlots = m_layout ? m_layout->slotCount() : -1;
    // Whether the user had zoomed in, judged on the layout being replaced.
    const TimeWindow previousBounds = timeBounds();
    const bool allLanes
        = !m_lanes.isValid() || (m_lanes.first <= 0.0 && m_lanes.first + m_lanes.count >= previousSlots);
    const bool wholeTime = !m_state->timeWindow().isValid() || m_state->timeWindow() == previousBounds;
    m_layout = std::move(layout);
    m_hoverSlot = -1;
    const qint64 slotTotal = m_layout ? m_layout->slotCount() : 0;
    const TimeWindow bounds = timeBounds();
    const TimeWindow window = m_state->timeWindow();
    if (grownCapture) {
        // A live capture grew: a view showing everything shows everything
        // again; a zoomed one stays where the user put it.
        if (allLanes)
            m_lanes = {0.0, double(qMax<qint64>(slotTotal, 1))};
        m_lanes = SwimlaneCoordinates::clampLanes(m_lanes, slotTotal, kMinLanesVisible);
        if (wholeTime || !window.isValid())
            m_state->setTimeWindow(bounds);
        else
            m_state->setTimeWindow(SwimlaneCoordinates::clampWindow(window, bounds, minimumDuration()));
        emit laneWindowChanged(m_lanes);
        update();
        return;
    }
    // A new order keeps the zoom; a different set of lanes starts over.
    if (slotTotal != previousSlots || !m_lanes.isValid())
        m_lanes = {0.0, double(qMax<qint64>(slotTotal, 1))};
    m_lanes = SwimlaneCoordinates::clampLanes(m_lanes, slotTotal, kMinLanesVisible);
    if (!window.isValid() || window.begin < bounds.begin || window.end > bounds.end)
        m_state->setTimeWindow(bounds);
    emit laneWindowChanged(m_lanes);
    update();
}

void SwimlaneCanvas::setWorkflowLanes(std::shared_ptr<const WorkflowLanes> lanes)
{
    if (lanes == m_workflows)
        return;
    m_workflows = std::move(lanes);
    update();
}

TimeWindow SwimlaneCanvas::timeBounds() const
{
    return m_layout ? boundsFor(*m_layout, m_state->timeAxis()) : TimeWindow{};
}

TimeWindow SwimlaneCanvas::boundsFor(const LaneLayout &layout, TimeAxis axis)
{
    if (layout.requestCount() == 0)
        return {};
    qint64 begin = 0;
    qint64 end = layout.longestLaneNs();
    if (axis == TimeAxis::Absolute) {
        begin = layout.traceBegin();
        end = layout.traceEnd();
    }
    // A small margin so the first and last phases do not touch the edges,
    // relative to the data: span traces of a few µs must fill the view, not
    // sit as a hairline in the middle of a fixed millisecond margin.
    const qint64 margin = qMax<qint64>((end - begin) / 50, kMinimumMarginNs);
    return {begin - margin, end + margin};
}

qint64 SwimlaneCanvas::tickOrigin() const
{
    return m_layout && m_state->timeAxis() == TimeAxis::Absolute ? m_layout->traceBegin() : 0;
}

qint64 SwimlaneCanvas::minimumDuration() const
{
    return 1'000; // 1 µs: below that, float offsets stop being exact
}

void SwimlaneCanvas::setLaneWindow(LaneWindow window)
{
    const qint64 slotTotal = m_layout ? m_layout->slotCount() : 0;
    window = SwimlaneCoordinates::clampLanes(window, slotTotal, kMinLanesVisible);
    if (window == m_lanes)
        return;
    m_lanes = window;
    emit laneWindowChanged(window);
    update();
}

void SwimlaneCanvas::fitAll()
{
    const qint64 slotTotal = m_layout ? m_layout->slotCount() : 0;
    setLaneWindow({0.0, double(qMax<qint64>(slotTotal, 1))});
    m_state->setTimeWindow(timeBounds());
}

void SwimlaneCanvas::zoomTime(double factor, double anchorX)
{
    const TimeWindow window = m_state->timeWindow();
    const qint64 anchor = SwimlaneCoordinates::xToTime(anchorX, window, width());
    m_state->setTimeWindow(SwimlaneCoordinates::zoomAround(window, anchor, factor, timeBounds(), minimumDuration()));
}

void SwimlaneCanvas::zoomLanes(double factor, double anchorY)
{
    const double anchor = SwimlaneCoordinates::yToLane(anchorY, m_lanes, height());
    const qint64 slotTotal = m_layout ? m_layout->slotCount() : 0;
    setLaneWindow(SwimlaneCoordinates::zoomLanesAround(m_lanes, anchor, factor, slotTotal, kMinLanesVisible));
}

void SwimlaneCanvas::scrollLanes(double lanes)
{
    setLaneWindow({m_lanes.first + lanes, m_lanes.count});
}

void SwimlaneCanvas::panTime(double fractionOfWindow)
{
    const TimeWindow window = m_state->timeWindow();
    const qint64 delta = qint64(std::llround(double(window.duration()) * fractionOfWindow));
    m_state->setTimeWindow(SwimlaneCoordinates::panBy(window, delta, timeBounds()));
}

void SwimlaneCanvas::zoomToRect(const QRect &rect)
{
    const TimeWindow window = m_state->timeWindow();
    const qint64 begin = SwimlaneCoordinates::xToTime(rect.left(), window, width());
    const qint64 end = SwimlaneCoordinates::xToTime(rect.right() + 1, window, width());
    const double top = SwimlaneCoordinates::yToLane(rect.top(), m_lanes, height());
    const double bottom = SwimlaneCoordinates::yToLane(rect.bottom() + 1, m_lanes, height());
    setLaneWindow({top, bottom - top});
    m_state->setTimeWindow(SwimlaneCoordinates::clampWindow({begin, end}, timeBounds(), minimumDuration()));
}

void SwimlaneCanvas::ensureSlotVisible(qint64 slot)
{
    if (slot < 0 || !m_lanes.isValid())
        return;
    if (double(slot) >= m_lanes.first && double(slot) + 1.0 <= m_lanes.first + m_lanes.count)
        return;
    setLaneWindow({double(slot) + 0.5 - m_lanes.count / 2.0, m_lanes.count});
}

void SwimlaneCanvas::ensureRowTimeVisible(qint32 row)
{
    const qint64 slot = m_layout ? m_layout->slotOf(row) : -1;
    if (slot < 0 || m_layout->origin(slot) == kNoTime)
        return;
    // The origin is the lane's first observed stamp; offsets are ms from it.
    float lastMs = 0.0f;
    for (int s = 0; s < kStampCount; ++s) {
        const float offset = m_layout->offsetMs(slot, static_cast<Stamp>(s));
        if (!std::isnan(offset))
            lastMs = qMax(lastMs, offset);
    }
    const qint64 begin = m_state->timeAxis() == TimeAxis::AlignedAtSend ? 0 : m_layout->origin(slot);
    const qint64 end = begin + qint64(std::llround(double(lastMs) * 1e6));
    m_state->setTimeWindow(
        SwimlaneCoordinates::bringIntoView(m_state->timeWindow(), begin, end, timeBounds(), minimumDuration()));
}

qint64 SwimlaneCanvas::slotAt(QPoint pos) const
{
    if (!m_layout)
        return -1;
    return SwimlaneCoordinates::laneAt(pos.y(), m_lanes, height(), m_layout->slotCount());
}

bool SwimlaneCanvas::showsSingleLanes() const
{
    return SwimlaneCoordinates::showsSingleLanes(m_lanes, height());
}

QString SwimlaneCanvas::toolTipAt(QPoint pos) const
{
    const qint64 slot = slotAt(pos);
    if (slot < 0 || !m_state->requests())
        return {};
    const QLocale locale;
    if (!showsSingleLanes()) {
        const auto [first, last]
            = SwimlaneCoordinates::lanesInPixelRow(pos.y(), m_lanes, height(), m_layout->slotCount());
        // Numbered as the lane counter numbers them: requests, headers not counted.
        const qint64 firstRequest = m_layout->requestLanesBefore(first) + 1;
        const qint64 lastRequest = m_layout->requestLanesBefore(last);
        QString where;
        if (!m_layout->groups().empty()) {
            const auto &groups = m_layout->groups();
            const QString from = groups[size_t(m_layout->groupAt(first))].label;
            const QString to = groups[size_t(m_layout->groupAt(qMax(first, last - 1)))].label;
            where = from == to ? tr("%1 = %2, ").arg(m_layout->order().groupBy, from)
                               : tr("%1 = %2 to %3, ").arg(m_layout->order().groupBy, from, to);
        }
        const QString lanes = lastRequest > firstRequest
            ? tr("lanes %1\u2013%2").arg(locale.toString(firstRequest), locale.toString(lastRequest))
            : tr("lane %1").arg(locale.toString(firstRequest));
        return tr("%1%2: %3 in this pixel row, drawn as their phase mix.\n"
                  "Zoom in (Shift+wheel, or drag a rectangle with the right button) to see single requests.")
            .arg(where, lanes,
                 CountText::of(qMax<qint64>(0, lastRequest - firstRequest + 1), tr("request"), tr("requests")));
    }
    const qint32 row = m_layout->rowAt(slot);
    if (row < 0) {
        const auto &group = m_layout->groups()[size_t(m_layout->groupAt(slot))];
        return tr("%1 = %2: %3")
            .arg(m_layout->order().groupBy, group.label, CountText::of(group.laneCount, tr("request"), tr("requests")));
    }
    const qint32 lane = m_workflows ? m_workflows->laneOfRow(row) : -1;
    if (lane >= 0) {
        // The moment under the cursor, from the lane's own origin.
        const qint64 t = SwimlaneCoordinates::xToTime(pos.x(), m_state->timeWindow(), width());
        const qint64 offset = m_state->timeAxis() == TimeAxis::AlignedAtSend ? t : t - m_workflows->origin(lane);
        const bool offPathBand = LaneRaster::laneBands(m_lanes, height(), slot).inOffPathBand(pos.y());
        return WorkflowLaneText::tooltipHtml(*m_state->store(), *m_workflows, lane, double(offset) / 1e6, offPathBand)
            + QStringLiteral("<hr>") + RequestText::tooltipHtml(*m_state->requests(), row, m_state->boundary());
    }
    return RequestText::tooltipHtml(*m_state->requests(), row, m_state->boundary());
}

LaneFrameKey SwimlaneCanvas::frameKey() const
{
    LaneFrameKey key;
    key.layout = m_layout;
    key.workflows = m_workflows;
    key.store = m_state->store();
    key.axis = m_state->timeAxis();
    key.window = m_state->timeWindow();
    key.lanes = m_lanes;
    key.size = size();
    key.tickOrigin = tickOrigin();
    key.colors = SwimlaneColors::fromPalette(palette());
    return key;
}

QImage SwimlaneCanvas::renderFrame()
{
    const LaneFrameKey key = frameKey();
    if (!(key == m_cacheKey) || m_cache.isNull()) {
        m_cache = LaneRaster::render(key);
        m_cacheKey = key;
        ++m_frameRenders;
    }
    return m_cache;
}

bool SwimlaneCanvas::rendersInBackground(const LaneFrameKey &key) const
{
    if (m_backgroundFrameLanes <= 0 || !key.layout
        || SwimlaneCoordinates::showsSingleLanes(key.lanes, key.size.height()))
        return false;
    // Many lanes, or a frame that would wait for the pool (LaneRaster::rendersOnPool).
    return key.lanes.count > double(m_backgroundFrameLanes) || LaneRaster::rendersOnPool(key);
}

// While the new frame renders, the old one stands in: moved and scaled so
// that its times and lanes land where the new window puts them.
void SwimlaneCanvas::drawStaleFrame(QPainter &painter, const LaneFrameKey &key) const
{
    painter.fillRect(rect(), QColor(key.colors.background));
    if (m_cache.isNull() || m_cacheKey.layout != key.layout || m_cacheKey.axis != key.axis
        || !m_cacheKey.window.isValid() || !m_cacheKey.lanes.isValid())
        return;
    const double w = width();
    const double h = height();
    const double x0 = SwimlaneCoordinates::timeToX(m_cacheKey.window.begin, key.window, w);
    const double x1 = SwimlaneCoordinates::timeToX(m_cacheKey.window.end, key.window, w);
    const double y0 = SwimlaneCoordinates::laneToY(m_cacheKey.lanes.first, key.lanes, h);
    const double y1 = SwimlaneCoordinates::laneToY(m_cacheKey.lanes.first + m_cacheKey.lanes.count, key.lanes, h);
    painter.drawImage(QRectF(QPointF(x0, y0), QPointF(x1, y1)), m_cache);
}

void SwimlaneCanvas::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const LaneFrameKey key = frameKey();
    if (key == m_cacheKey && !m_cache.isNull()) {
        painter.drawImage(0, 0, m_cache);
    } else if (rendersInBackground(key)) {
        // One frame in flight at a time: when it lands, the next paint asks
        // for whatever the window is by then.
        if (!m_frameJob.isRunning()) {
            m_frameJob.start([key](const std::atomic<bool> *) { return LaneRaster::render(key); },
                             [this, key](QImage image) {
                                 m_cache = std::move(image);
                                 m_cacheKey = key;
                                 ++m_frameRenders;
                                 update();
                                 emit frameReady();
                             });
        }
        if (key == m_cacheKey) // the job finished at once
            painter.drawImage(0, 0, m_cache);
        else
            drawStaleFrame(painter, key);
    } else {
        painter.drawImage(0, 0, renderFrame());
    }
    overlay(key.colors).paint(painter);
    if (!m_layout || m_layout->requestCount() == 0) {
        QString why = tr("No trace loaded.");
        if (const QString empty = m_state->emptySliceText(); !empty.isEmpty())
            why = empty;
        else if (m_state->store())
            why = m_state->requestCount() == 0 ? tr("The trace holds no request.") : tr("Laying out the lanes\u2026");
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, why);
    }
}

SwimlaneOverlay SwimlaneCanvas::overlay(const SwimlaneColors &colors) const
{
    SwimlaneOverlay overlay;
    overlay.layout = m_layout.get();
    overlay.state = m_state;
    overlay.axis = m_state->timeAxis();
    overlay.window = m_state->timeWindow();
    overlay.lanes = m_lanes;
    overlay.size = size();
    overlay.colors = colors;
    overlay.hoverSlot = m_hoverSlot;
    overlay.stalls = m_stallMarks.get();
    return overlay;
}

std::vector<SwimlaneOverlay::GroupLabel> SwimlaneCanvas::groupLabels() const
{
    QFont bold = font();
    bold.setBold(true);
    return overlay(SwimlaneColors::fromPalette(palette())).groupLabels(QFontMetricsF(bold));
}

void SwimlaneCanvas::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // How many lanes share a pixel row depends on the height too.
    emit laneWindowChanged(m_lanes);
    update();
}

void SwimlaneCanvas::changeEvent(QEvent *event)
{
    // Palette changes (light/dark) change the frame key, so the next paint rebuilds.
    if (event->type() == QEvent::PaletteChange)
        update();
    QWidget::changeEvent(event);
}

bool SwimlaneCanvas::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void SwimlaneCanvas::setHoverSlot(qint64 slot)
{
    if (slot == m_hoverSlot)
        return;
    m_hoverSlot = slot;
    if (showsSingleLanes())
        update();
}

void SwimlaneCanvas::selectAt(QPoint pos, bool toggle)
{
    const qint64 slot = slotAt(pos);
    if (slot < 0) {
        if (!toggle)
            m_state->clearSelection();
        return;
    }
    if (!showsSingleLanes()) {
        // An aggregated pixel row selects every request it summarises.
        const auto [first, last]
            = SwimlaneCoordinates::lanesInPixelRow(pos.y(), m_lanes, height(), m_layout->slotCount());
        std::vector<qint32> rows;
        for (qint64 s = first; s < last; ++s) {
            if (m_layout->rowAt(s) >= 0)
                rows.push_back(m_layout->rowAt(s));
        }
        m_state->setSelection(RowSet::fromRows(std::move(rows)));
        return;
    }
    const qint32 row = m_layout->rowAt(slot);
    if (row < 0)
        return;
    if (!toggle) {
        m_state->selectRow(row);
        return;
    }
    std::vector<qint32> rows(m_state->selection().begin(), m_state->selection().end());
    const auto it = std::find(rows.begin(), rows.end(), row);
    if (it == rows.end())
        rows.push_back(row);
    else
        rows.erase(it);
    m_state->setSelection(RowSet::fromRows(std::move(rows)));
    m_state->setCurrentRow(row);
}

void SwimlaneCanvas::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->position().toPoint();
    m_moved = false;
    m_pressWindow = m_state->timeWindow();
    m_pressLanes = m_lanes;
    const bool band = event->button() == Qt::RightButton
        || (event->button() == Qt::LeftButton && event->modifiers().testFlag(Qt::ShiftModifier));
    if (band) {
        m_drag = Drag::RubberBand;
        m_rubberBand->setGeometry(QRect(m_pressPos, QSize()));
        m_rubberBand->show();
    } else if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Pan;
    }
    setFocus(Qt::MouseFocusReason);
}

void SwimlaneCanvas::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::None) {
        setHoverSlot(slotAt(pos));
        return;
    }
    if ((pos - m_pressPos).manhattanLength() >= kDragThresholdPx)
        m_moved = true;
    if (m_drag == Drag::RubberBand) {
        m_rubberBand->setGeometry(QRect(m_pressPos, pos).normalized());
        return;
    }
    if (!m_moved)
        return;
    setCursor(Qt::ClosedHandCursor);
    const QPoint delta = pos - m_pressPos;
    const qint64 dt = -qint64(std::llround(double(delta.x()) / qMax(1, width()) * double(m_pressWindow.duration())));
    m_state->setTimeWindow(SwimlaneCoordinates::panBy(m_pressWindow, dt, timeBounds()));
    const double dl = -double(delta.y()) / qMax(1, height()) * m_pressLanes.count;
    setLaneWindow({m_pressLanes.first + dl, m_pressLanes.count});
}

void SwimlaneCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag == Drag::RubberBand) {
        m_rubberBand->hide();
        const QRect band = m_rubberBand->geometry();
        if (m_moved && band.width() >= kDragThresholdPx && band.height() >= kDragThresholdPx)
            zoomToRect(band);
        return;
    }
    if (drag == Drag::Pan && !m_moved)
        selectAt(event->position().toPoint(), event->modifiers().testFlag(Qt::ControlModifier));
}

void SwimlaneCanvas::mouseDoubleClickEvent(QMouseEvent *event)
{
    const qint64 slot = slotAt(event->position().toPoint());
    if (slot >= 0 && showsSingleLanes() && m_layout->rowAt(slot) >= 0)
        m_state->activateRow(m_layout->rowAt(slot));
}

void SwimlaneCanvas::leaveEvent(QEvent *event)
{
    setHoverSlot(-1);
    QWidget::leaveEvent(event);
}

void SwimlaneCanvas::wheelEvent(QWheelEvent *event)
{
    const QPointF pos = event->position();
    const QPoint angle = event->angleDelta();
    // Some platforms turn Shift+wheel into a horizontal wheel; accept both.
    const int vertical = angle.y() != 0 ? angle.y() : angle.x();
    const double steps = double(vertical) / 120.0;
    const Qt::KeyboardModifiers mods = event->modifiers();
    if (mods.testFlag(Qt::ControlModifier)) {
        scrollLanes(-steps * qMax(1.0, m_lanes.count / 10.0));
    } else if (mods.testFlag(Qt::ShiftModifier)) {
        zoomLanes(std::pow(kWheelZoomPerStep, steps), pos.y());
    } else if (angle.y() == 0 && angle.x() != 0) {
        panTime(-double(angle.x()) / 120.0 * 0.1); // horizontal scrolling pans
    } else {
        zoomTime(std::pow(kWheelZoomPerStep, steps), pos.x());
    }
    event->accept();
}

void SwimlaneCanvas::keyPressEvent(QKeyEvent *event)
{
    const bool ctrl = event->modifiers().testFlag(Qt::ControlModifier);
    const double pageLanes = qMax(1.0, m_lanes.count - 1.0);
    const double stepLanes = showsSingleLanes() ? 1.0 : qMax(1.0, m_lanes.count / 20.0);
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomTime(kKeyZoom, width() / 2.0);
        break;
    case Qt::Key_Minus:
        zoomTime(1.0 / kKeyZoom, width() / 2.0);
        break;
    case Qt::Key_Left:
        panTime(-0.1);
        break;
    case Qt::Key_Right:
        panTime(0.1);
        break;
    case Qt::Key_Up:
        if (ctrl)
            zoomLanes(kKeyZoom, height() / 2.0);
        else
            scrollLanes(-stepLanes);
        break;
    case Qt::Key_Down:
        if (ctrl)
            zoomLanes(1.0 / kKeyZoom, height() / 2.0);
        else
            scrollLanes(stepLanes);
        break;
    case Qt::Key_PageUp:
        scrollLanes(-pageLanes);
        break;
    case Qt::Key_PageDown:
        scrollLanes(pageLanes);
        break;
    case Qt::Key_Home:
        if (ctrl)
            setLaneWindow({0.0, m_lanes.count});
        else
            m_state->setTimeWindow(SwimlaneCoordinates::clampWindow(
                {timeBounds().begin, timeBounds().begin + m_state->timeWindow().duration()}, timeBounds(),
                minimumDuration()));
        break;
    case Qt::Key_End:
        if (ctrl)
            setLaneWindow({1e18, m_lanes.count});
        else
            m_state->setTimeWindow(SwimlaneCoordinates::clampWindow(
                {timeBounds().end - m_state->timeWindow().duration(), timeBounds().end}, timeBounds(),
                minimumDuration()));
        break;
    case Qt::Key_F:
        fitAll();
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        m_state->activateRow(m_state->currentRow());
        break;
    case Qt::Key_Escape:
        m_state->clearSelection();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void SwimlaneCanvas::setStallMarks(std::shared_ptr<const StallMarks> marks)
{
    m_stallMarks = std::move(marks);
    update();
}
