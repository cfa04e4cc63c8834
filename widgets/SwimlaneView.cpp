#include "SwimlaneView.h"

#include "CountText.h"
#include "LaneRaster.h"
#include "OverviewStrip.h"
#include "PhaseLegend.h"
#include "SwimlaneCanvas.h"
#include "TimeRuler.h"
#include "ViewState.h"
#include "analysis/lanes/LaneActivity.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/lanes/WorkActivity.h"
#include "analysis/lanes/WorkflowLanes.h"
#include "analysis/streams/StallMarks.h"
#include "store/TraceStore.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <array>
#include <cmath>
#include <utility>

namespace {

constexpr int kProfileBins = 1024;

QString orderKeyData(const LaneOrder &order)
{
    switch (order.key) {
    case LaneOrder::Key::Arrival:
        return QStringLiteral("arrival");
    case LaneOrder::Key::Metric:
        return QStringLiteral("metric:") + metricKey(order.metric);
    case LaneOrder::Key::Attribute:
        break;
    }
    return QStringLiteral("attribute:") + order.attribute;
}

} // namespace

SwimlaneView::SwimlaneView(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_axis(new QComboBox(this))
    , m_orderKey(new QComboBox(this))
    , m_descending(new QCheckBox(tr("Descending"), this))
    , m_groupBy(new QComboBox(this))
    , m_laneInfo(new QLabel(this))
    , m_legend(new PhaseLegend(this))
    , m_ruler(new TimeRuler(state, this))
    , m_canvas(new SwimlaneCanvas(state, this))
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
    , m_overview(new OverviewStrip(state, this))
{
    setObjectName(QStringLiteral("swimlaneView"));
    m_axis->setObjectName(QStringLiteral("timeAxis"));
    m_axis->addItem(tr("Absolute trace time"), int(TimeAxis::Absolute));
    m_axis->addItem(tr("Aligned at each start"), int(TimeAxis::AlignedAtSend));
    m_axis->setToolTip(tr("Absolute time shows bursts and queue build-up; aligned lanes (each request at its "
                          "client send, each workflow at its start) compare shapes."));
    m_orderKey->setObjectName(QStringLiteral("laneOrder"));
    m_groupBy->setObjectName(QStringLiteral("laneGroup"));
    m_descending->setObjectName(QStringLiteral("laneDescending"));
    m_laneInfo->setObjectName(QStringLiteral("laneInfo"));
    m_laneInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long filter label must not widen the window: it is cut at the edge.
    m_laneInfo->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_laneInfo->setMinimumWidth(80);
    fillOrderCombos();
    // Long attribute names must not make the panel wider than the screen: at
    // 1280 px the lanes share the width with the right-hand docks.
    for (QComboBox *combo : {m_orderKey, m_groupBy}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(10);
    }

    // Clicking a control leaves the keyboard with the lanes (zoom, pan keys
    // keep working after choosing an order); Tab still reaches every control.
    for (QWidget *control : std::initializer_list<QWidget *>{m_axis, m_orderKey, m_descending, m_groupBy})
        control->setFocusPolicy(Qt::TabFocus);
    // Lane zoom keys act anywhere in the panel: a focused combo box ignores
    // Ctrl+Up / Ctrl+Down, which would otherwise zoom nothing.
    const std::array<std::pair<QKeySequence, double>, 2> laneZooms = {{
        {QKeySequence(Qt::CTRL | Qt::Key_Up), SwimlaneCanvas::kKeyZoom},
        {QKeySequence(Qt::CTRL | Qt::Key_Down), 1.0 / SwimlaneCanvas::kKeyZoom},
    }};
    for (const auto &[keys, factor] : laneZooms) {
        auto *zoom = new QAction(this);
        zoom->setShortcut(keys);
        zoom->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(zoom, &QAction::triggered, m_canvas,
                [this, factor = factor] { m_canvas->zoomLanes(factor, m_canvas->height() / 2.0); });
        addAction(zoom);
    }

    auto *fit = m_fit = new QToolButton(this);
    fit->setFocusPolicy(Qt::NoFocus);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show every lane and the whole trace (F)"));
    connect(fit, &QToolButton::clicked, m_canvas, &SwimlaneCanvas::fitAll);

    auto *controls = m_controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Time:"), this));
    controls->addWidget(m_axis);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Order by:"), this));
    controls->addWidget(m_orderKey);
    controls->addWidget(m_descending);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Group by:"), this));
    controls->addWidget(m_groupBy);
    controls->addWidget(fit);
    controls->addSpacing(12);
    controls->addWidget(m_laneInfo, 1);
    m_infoRow = new QHBoxLayout;

    auto *lanes = new QGridLayout;
    lanes->setSpacing(0);
    lanes->addWidget(m_ruler, 0, 0);
    lanes->addWidget(m_canvas, 1, 0);
    lanes->addWidget(m_scrollBar, 1, 1);
    lanes->addWidget(m_overview, 2, 0);
    lanes->setRowStretch(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addLayout(m_infoRow);
    layout->addWidget(m_legend);
    layout->addLayout(lanes, 1);

    connect(m_axis, &QComboBox::activated, this,
            [this] { m_state->setTimeAxis(static_cast<TimeAxis>(m_axis->currentData().toInt())); });
    connect(state, &ViewState::timeAxisChanged, this, [this](TimeAxis axis) {
        m_axis->setCurrentIndex(m_axis->findData(int(axis)));
        m_ruler->setTickOrigin(m_canvas->tickOrigin());
        updateOverview();
    });
    connect(m_orderKey, &QComboBox::activated, this, &SwimlaneView::orderFromControls);
    connect(m_groupBy, &QComboBox::activated, this, &SwimlaneView::orderFromControls);
    connect(m_descending, &QCheckBox::toggled, this, &SwimlaneView::orderFromControls);
    connect(state, &ViewState::storeChanged, this, [this] {
        // Until its first layout is shown, a trace opened in place of the
        // last is not a grown capture, whatever refreshes follow meanwhile.
        if (!m_state->isStoreRefresh())
            m_lanesReplaced = true;
        fillOrderCombos();
        rebuildWorkflowLanes();
        rebuildLayout();
    });
    connect(state, &ViewState::sliceChanged, this, [this] {
        m_lanesReplaced = true; // another set of lanes
        rebuildLayout();
    });
    connect(state, &ViewState::bookmarksChanged, this, &SwimlaneView::updateLegend);
    connect(state, &ViewState::boundaryChanged, this, [this] {
        m_order.boundary = m_state->boundary();
        if (m_order.key == LaneOrder::Key::Metric && m_order.metric == Metric::Ttft)
            rebuildLayout();
    });
    connect(m_canvas, &SwimlaneCanvas::laneWindowChanged, this, [this] {
        syncScrollBar();
        updateLaneInfo();
    });
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int value) {
        if (!m_syncing)
            m_canvas->setLaneWindow({double(value), m_canvas->laneWindow().count});
    });
}

SwimlaneView::~SwimlaneView() = default;

void SwimlaneView::fillOrderCombos()
{
    const QString keepOrder = m_orderKey->currentData().toString();
    const QString keepGroup = m_groupBy->currentData().toString();
    m_orderKey->clear();
    m_orderKey->addItem(tr("Arrival"), QStringLiteral("arrival"));
    for (const Metric metric : allMetrics())
        m_orderKey->addItem(metricLabel(metric), QString(QStringLiteral("metric:") + metricKey(metric)));
    m_groupBy->clear();
    m_groupBy->addItem(tr("No grouping"), QString());
    if (const RequestTable *table = m_state->requests()) {
        for (const AttributeColumn &column : table->attributes()) {
            m_orderKey->addItem(column.name(), QString(QStringLiteral("attribute:") + column.name()));
            m_groupBy->addItem(column.name(), column.name());
        }
    }
    m_orderKey->setCurrentIndex(qMax(0, m_orderKey->findData(keepOrder.isEmpty() ? orderKeyData(m_order) : keepOrder)));
    m_groupBy->setCurrentIndex(qMax(0, m_groupBy->findData(keepGroup)));
}

void SwimlaneView::orderFromControls()
{
    LaneOrder order = m_order;
    const QString key = m_orderKey->currentData().toString();
    if (key.startsWith(QStringLiteral("metric:"))) {
        order.key = LaneOrder::Key::Metric;
        metricFromKey(key.mid(7), &order.metric);
    } else if (key.startsWith(QStringLiteral("attribute:"))) {
        order.key = LaneOrder::Key::Attribute;
        order.attribute = key.mid(10);
    } else {
        order.key = LaneOrder::Key::Arrival;
    }
    order.descending = m_descending->isChecked();
    order.groupBy = m_groupBy->currentData().toString();
    setLaneOrder(order);
}

void SwimlaneView::setLaneOrder(const LaneOrder &order)
{
    LaneOrder wanted = order;
    wanted.boundary = m_state->boundary();
    if (wanted == m_order)
        return;
    m_order = wanted;
    m_orderKey->setCurrentIndex(qMax(0, m_orderKey->findData(orderKeyData(m_order))));
    m_groupBy->setCurrentIndex(qMax(0, m_groupBy->findData(m_order.groupBy)));
    {
        const QSignalBlocker blocker(m_descending);
        m_descending->setChecked(m_order.descending);
    }
    rebuildLayout();
}

void SwimlaneView::rebuildWorkflowLanes()
{
    // A live refresh keeps listing the kinds until the new lanes come: a
    // legend that said "finding…" for a moment each refresh changed height
    // twice a refresh, relaying out the window and redrawing the lanes.
    m_refreshKinds = {};
    for (int k = 0; m_state->isStoreRefresh() && m_workflows && k < kWorkKindCount; ++k)
        m_refreshKinds[size_t(k)] = m_workflows->shows(WorkKind(k));
    // The old lanes index the old store: they go before anything draws.
    m_workflows.reset();
    m_canvas->setWorkflowLanes(nullptr);
    m_canvas->setBackgroundFrameLanes(LaneRaster::backgroundFrameLanes(false));
    const std::shared_ptr<const TraceStore> store = m_state->store();
    updateLegend();
    if (!store || store->workflows.rowCount() == 0) {
        m_workflowJob.cancel();
        return;
    }
    m_workflowJob.start(
        [store](const std::atomic<bool> *cancelled) {
            return std::make_shared<const WorkflowLanes>(WorkflowLanes::build(*store, cancelled, 2));
        },
        [this](std::shared_ptr<const WorkflowLanes> lanes) { applyWorkflowLanes(std::move(lanes)); });
}

void SwimlaneView::applyWorkflowLanes(std::shared_ptr<const WorkflowLanes> lanes)
{
    m_workflows = std::move(lanes);
    m_canvas->setWorkflowLanes(m_workflows);
    m_canvas->setBackgroundFrameLanes(LaneRaster::backgroundFrameLanes(m_workflows && !m_workflows->isEmpty()));
    updateLegend();
    rebuildLayout(); // the overview now stacks the workflows' kinds
}

void SwimlaneView::updateLegend()
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    PhaseLegend::Content content;
    if (store) {
        const qsizetype workflowRows = store->workflows.rowCount();
        content.phases = store->requests.rowCount() > workflowRows || workflowRows == 0;
        for (int k = 0; m_workflows && k < kWorkKindCount; ++k)
            content.kinds[size_t(k)] = m_workflows->shows(WorkKind(k));
        if (workflowRows > 0 && !m_workflows)
            content.kinds = m_refreshKinds;
        content.kindsPending = workflowRows > 0 && !m_workflows && !content.anyKind();
        content.bookmarks = !m_state->bookmarks().isEmpty();
        content.stalls = m_canvas->stallMarks() && !m_canvas->stallMarks()->isEmpty();
    }
    m_legend->setContent(content);
}

void SwimlaneView::setStallMarks(std::shared_ptr<const StallMarks> marks)
{
    m_canvas->setStallMarks(std::move(marks));
    updateLegend();
}

void SwimlaneView::rebuildLayout()
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store) {
        m_job.cancel();
        applyLayout({});
        return;
    }
    const bool sliced = m_state->hasSlice();
    RowSet scope = sliced ? m_state->slice() : RowSet();
    const LaneOrder order = m_order;
    const std::shared_ptr<const WorkflowLanes> workflows = m_workflows;
    m_laneInfo->setText(tr("Laying out %1\u2026").arg(CountText::of(m_state->scopeSize(), tr("lane"), tr("lanes"))));
    m_job.start(
        [store, order, sliced, scope = std::move(scope), workflows](const std::atomic<bool> *cancelled) {
            LayoutResult result;
            auto layout = std::make_shared<LaneLayout>(
                LaneLayout::build(store->requests, order, sliced ? &scope : nullptr, cancelled));
            for (const TimeAxis axis : {TimeAxis::Absolute, TimeAxis::AlignedAtSend}) {
                const bool aligned = axis == TimeAxis::AlignedAtSend;
                auto profile = std::make_shared<LaneActivity>(kProfileBins);
                const TimeWindow bounds = SwimlaneCanvas::boundsFor(*layout, axis);
                profile->addLanes(*layout, 0, layout->slotCount(), aligned, bounds.begin, bounds.duration(),
                                  workflows.get());
                profile->finish();
                (aligned ? result.alignedProfile : result.absoluteProfile) = std::move(profile);
                if (!workflows)
                    continue;
                auto kinds = std::make_shared<WorkActivity>(kProfileBins);
                kinds->addLanes(*layout, *workflows, 0, layout->slotCount(), aligned, bounds.begin, bounds.duration());
                kinds->finish();
                (aligned ? result.alignedKinds : result.absoluteKinds) = std::move(kinds);
            }
            result.layout = std::move(layout);
            // Keep the store alive with the layout that indexes into it.
            Q_UNUSED(store);
            return result;
        },
        [this](const LayoutResult &result) { applyLayout(result); });
}

void SwimlaneView::applyLayout(const LayoutResult &result)
{
    m_current = result;
    m_canvas->setLaneLayout(result.layout, !std::exchange(m_lanesReplaced, false));
    m_ruler->setTickOrigin(m_canvas->tickOrigin());
    updateOverview();
    syncScrollBar();
    updateLaneInfo();
    emit layoutReady();
}

void SwimlaneView::updateOverview()
{
    const bool aligned = m_state->timeAxis() == TimeAxis::AlignedAtSend;
    const auto &profile = aligned ? m_current.alignedProfile : m_current.absoluteProfile;
    const auto &kinds = aligned ? m_current.alignedKinds : m_current.absoluteKinds;
    m_overview->setProfile(profile, m_canvas->timeBounds(), kinds);
}

void SwimlaneView::syncScrollBar()
{
    const auto &layout = m_canvas->laneLayout();
    const auto lanes = m_canvas->laneWindow();
    const qint64 slotTotal = layout ? layout->slotCount() : 0;
    m_syncing = true;
    const int page = int(qMax(1.0, lanes.count));
    m_scrollBar->setRange(0, int(qMax<qint64>(0, slotTotal - page)));
    m_scrollBar->setPageStep(page);
    m_scrollBar->setSingleStep(qMax(1, page / 20));
    m_scrollBar->setValue(int(std::lround(lanes.first)));
    m_syncing = false;
}

void SwimlaneView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeLaneInfo();
}

QToolButton *SwimlaneView::addControl(QAction *action)
{
    auto *button = new QToolButton(this);
    button->setFocusPolicy(Qt::NoFocus);
    button->setDefaultAction(action);
    button->setVisible(action->isVisible());
    m_controls->insertWidget(m_controls->indexOf(m_fit) + 1, button);
    connect(action, &QAction::changed, button, [this, button, action] {
        if (button->isVisibleTo(this) == action->isVisible())
            return;
        button->setVisible(action->isVisible());
        placeLaneInfo();
    });
    placeLaneInfo();
    return button;
}

// The lane counter sits right of the controls when a typical counter fits
// there, else on a row of its own under them (a narrow window: the lanes
// share 1280 px with the right-hand docks), never cut mid-number.
void SwimlaneView::placeLaneInfo()
{
    const bool inControls = m_controls->indexOf(m_laneInfo) >= 0;
    int controls = m_controls->sizeHint().width();
    if (inControls)
        controls -= m_laneInfo->sizeHint().width() + m_controls->spacing();
    static const QString typical = tr("Lanes 1\u20132,000 of 2,000 \u00b7 aggregated, about 4.1 lanes per pixel row");
    const QMargins margins = layout()->contentsMargins();
    const bool fits = width() - margins.left() - margins.right()
        >= controls + m_controls->spacing() + m_laneInfo->fontMetrics().horizontalAdvance(typical);
    if (fits == inControls)
        return;
    // The controls keep their packing at the left: the counter, or a stretch
    // in its place, takes the rest of the row.
    if (fits) {
        m_infoRow->removeWidget(m_laneInfo);
        delete m_controls->takeAt(m_controls->count() - 1); // the stretch
        m_controls->addWidget(m_laneInfo, 1);
    } else {
        m_controls->removeWidget(m_laneInfo);
        m_controls->addStretch(1);
        m_infoRow->addWidget(m_laneInfo, 1);
    }
}

bool SwimlaneView::laneInfoHasOwnRow() const
{
    return m_infoRow->indexOf(m_laneInfo) >= 0;
}

void SwimlaneView::updateLaneInfo()
{
    const auto &layout = m_canvas->laneLayout();
    if (!layout || layout->isEmpty()) {
        const QString empty = m_state->emptySliceText();
        m_laneInfo->setText(!empty.isEmpty() ? empty : m_state->store() ? tr("No lanes") : QString());
        m_laneInfo->setToolTip(m_laneInfo->text());
        return;
    }
    const QLocale locale;
    const auto lanes = m_canvas->laneWindow();
    // Requests on screen, group headers not counted.
    const qint64 firstSlot = qMax<qint64>(0, qint64(lanes.first));
    const qint64 endSlot = qMin(layout->slotCount(), qint64(lanes.first + lanes.count + 0.999));
    const qint64 first = layout->requestLanesBefore(firstSlot) + 1;
    const qint64 last = qMax(first, layout->requestLanesBefore(endSlot));
    const qint64 total = layout->requestCount();
    QString text = first == last
        ? tr("Lane %1 of %2").arg(locale.toString(first), locale.toString(total))
        : tr("Lanes %1\u2013%2 of %3").arg(locale.toString(first), locale.toString(last), locale.toString(total));
    if (!layout->groups().empty())
        text += tr(" in %1").arg(CountText::of(qint64(layout->groups().size()), tr("group"), tr("groups")));
    if (!m_canvas->showsSingleLanes()) {
        const double perRow = lanes.count / qMax(1, m_canvas->height());
        text += tr(" \u00b7 aggregated, about %1 lanes per pixel row")
                    .arg(locale.toString(perRow, 'f', perRow < 10 ? 1 : 0));
    }
    if (m_state->hasSlice())
        text += tr(" \u00b7 filter: %1").arg(m_state->sliceLabel());
    m_laneInfo->setText(text);
    m_laneInfo->setToolTip(text);
}
