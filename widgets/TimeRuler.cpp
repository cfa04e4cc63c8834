#include "TimeRuler.h"

#include "LaneRaster.h"
#include "SwimlaneCoordinates.h"
#include "ViewState.h"

#include <QPainter>

#include <cmath>

TimeRuler::TimeRuler(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
{
    setObjectName(QStringLiteral("timeRuler"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    connect(state, &ViewState::timeWindowChanged, this, qOverload<>(&QWidget::update));
    connect(state, &ViewState::timeAxisChanged, this, qOverload<>(&QWidget::update));
}

void TimeRuler::setTickOrigin(qint64 origin)
{
    if (origin == m_tickOrigin)
        return;
    m_tickOrigin = origin;
    update();
}

void TimeRuler::setLeftInset(int pixels)
{
    m_leftInset = pixels;
    update();
}

int TimeRuler::axisWidth() const
{
    return qMax(1, width() - m_leftInset);
}

QSize TimeRuler::sizeHint() const
{
    return {400, fontMetrics().height() * 2 + 10};
}

QString TimeRuler::axisTitle() const
{
    const auto unit = SwimlaneCoordinates::unitForSpan(m_state->timeWindow().duration());
    if (m_state->timeAxis() == TimeAxis::AlignedAtSend)
        return tr("Time since each request's client send (%1)").arg(unit.symbol);
    return tr("Trace time since the first request was sent (%1)").arg(unit.symbol);
}

QStringList TimeRuler::tickLabels() const
{
    QStringList labels;
    const TimeWindow window = m_state->timeWindow();
    if (!window.isValid())
        return labels;
    const auto unit = SwimlaneCoordinates::unitForSpan(window.duration());
    const qint64 step = LaneRaster::gridStep(window, axisWidth());
    for (qint64 t = SwimlaneCoordinates::firstTick(window.begin, m_tickOrigin, step); t < window.end; t += step)
        labels.append(SwimlaneCoordinates::formatTick(t - m_tickOrigin, step, unit));
    return labels;
}

void TimeRuler::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window));
    const TimeWindow window = m_state->timeWindow();
    const int lineHeight = fontMetrics().height();
    painter.setPen(palette().color(QPalette::WindowText));
    QFont titleFont = font();
    titleFont.setBold(true);
    painter.setFont(titleFont);
    painter.drawText(QRect(m_leftInset, 2, axisWidth(), lineHeight), Qt::AlignCenter, axisTitle());
    painter.setFont(font());
    if (!window.isValid())
        return;
    const auto unit = SwimlaneCoordinates::unitForSpan(window.duration());
    const qint64 step = LaneRaster::gridStep(window, axisWidth());
    const int baseline = height() - 1;
    painter.drawLine(m_leftInset, baseline, width(), baseline);
    for (qint64 t = SwimlaneCoordinates::firstTick(window.begin, m_tickOrigin, step); t < window.end; t += step) {
        const int x = m_leftInset + int(std::lround(SwimlaneCoordinates::timeToX(t, window, axisWidth())));
        painter.drawLine(x, baseline - 5, x, baseline);
        const QString label = SwimlaneCoordinates::formatTick(t - m_tickOrigin, step, unit);
        const int labelWidth = fontMetrics().horizontalAdvance(label);
        // Keep the first and last labels inside the ruler.
        const int left = qBound(m_leftInset, x - labelWidth / 2, width() - labelWidth - 1);
        painter.drawText(QRect(left, lineHeight + 3, labelWidth + 1, lineHeight), Qt::AlignLeft, label);
    }
}
