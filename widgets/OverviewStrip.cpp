#include "OverviewStrip.h"

#include "SwimlaneColors.h"
#include "SwimlaneCoordinates.h"
#include "ViewState.h"
#include "analysis/lanes/LaneActivity.h"
#include "analysis/lanes/WorkActivity.h"

#include <QMouseEvent>
#include <QPainter>

#include <array>

OverviewStrip::OverviewStrip(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
{
    setObjectName(QStringLiteral("overviewStrip"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Requests in each phase over the whole trace. Click or drag to move the visible window."));
    connect(state, &ViewState::timeWindowChanged, this, qOverload<>(&QWidget::update));
}

void OverviewStrip::setProfile(std::shared_ptr<const LaneActivity> profile, TimeWindow bounds,
                               std::shared_ptr<const WorkActivity> kinds)
{
    m_profile = std::move(profile);
    m_kinds = std::move(kinds);
    m_bounds = bounds;
    update();
}

void OverviewStrip::setLeftInset(int pixels)
{
    m_leftInset = pixels;
    update();
}

QRect OverviewStrip::plotRect() const
{
    return rect().adjusted(m_leftInset, 2, 0, -2);
}

void OverviewStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const SwimlaneColors colors = SwimlaneColors::fromPalette(palette());
    painter.fillRect(rect(), palette().color(QPalette::Window));
    const QRect plot = plotRect();
    painter.fillRect(plot, QColor(colors.background));
    if (!m_profile || m_profile->binCount() == 0 || !m_bounds.isValid())
        return;
    // Stacked counts per pixel column, averaged over the bins it covers:
    // request phases, then workflow kinds.
    constexpr int kStacked = LaneActivity::kCategories + WorkActivity::kCategories;
    const int bins = m_profile->binCount();
    const bool kinds = m_kinds && m_kinds->binCount() == bins;
    const int width = plot.width();
    std::vector<std::array<float, kStacked>> columns(size_t(qMax(0, width)));
    float peak = 0.0f;
    for (int x = 0; x < width; ++x) {
        const int b0 = x * bins / width;
        const int b1 = qMax(b0 + 1, (x + 1) * bins / width);
        auto &column = columns[size_t(x)];
        column.fill(0.0f);
        for (int b = b0; b < b1 && b < bins; ++b) {
            for (int c = 0; c < LaneActivity::kCategories; ++c)
                column[size_t(c)] += m_profile->value(b, c) / float(b1 - b0);
            for (int k = 0; kinds && k < WorkActivity::kCategories; ++k)
                column[size_t(LaneActivity::kCategories) + size_t(k)] += m_kinds->value(b, k) / float(b1 - b0);
        }
        float total = 0.0f;
        for (const float v : column)
            total += v;
        peak = qMax(peak, total);
    }
    const auto colourOf = [&colors](int c) {
        return QColor(c < LaneActivity::kCategories ? colors.categories[size_t(c)]
                                                    : colors.kinds[size_t(c - LaneActivity::kCategories)]);
    };
    if (peak > 0.0f) {
        const double scale = double(plot.height()) / double(peak);
        for (int x = 0; x < width; ++x) {
            double y = plot.bottom() + 1;
            for (int c = 0; c < kStacked; ++c) {
                const double h = double(columns[size_t(x)][size_t(c)]) * scale;
                if (h <= 0.0)
                    continue;
                painter.fillRect(QRectF(plot.left() + x, y - h, 1.0, h), colourOf(c));
                y -= h;
            }
        }
    }
    // The visible window: shade what is outside it, frame what is inside.
    const TimeWindow window = m_state->timeWindow();
    if (!window.isValid())
        return;
    const double x0 = plot.left() + SwimlaneCoordinates::timeToX(window.begin, m_bounds, width);
    const double x1 = plot.left() + SwimlaneCoordinates::timeToX(window.end, m_bounds, width);
    QColor shade = palette().color(QPalette::Window);
    shade.setAlpha(150);
    painter.fillRect(QRectF(plot.left(), plot.top(), qMax(0.0, x0 - plot.left()), plot.height()), shade);
    painter.fillRect(QRectF(x1, plot.top(), qMax(0.0, plot.right() + 1 - x1), plot.height()), shade);
    painter.setPen(QPen(colors.selection, 2.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(x0, plot.top() + 1, qMax(2.0, x1 - x0), plot.height() - 2));
}

void OverviewStrip::centreWindowAt(double x)
{
    const TimeWindow window = m_state->timeWindow();
    if (!window.isValid() || !m_bounds.isValid())
        return;
    const qint64 centre = SwimlaneCoordinates::xToTime(x - plotRect().left(), m_bounds, plotRect().width());
    const qint64 half = window.duration() / 2;
    m_state->setTimeWindow(SwimlaneCoordinates::clampWindow({centre - half, centre - half + window.duration()},
                                                            m_bounds, window.duration()));
}

void OverviewStrip::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        centreWindowAt(event->position().x());
}

void OverviewStrip::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons().testFlag(Qt::LeftButton))
        centreWindowAt(event->position().x());
}
