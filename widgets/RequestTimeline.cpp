#include "RequestTimeline.h"

#include "PhaseColors.h"
#include "SwimlaneCoordinates.h"

#include <QPainter>

#include <cmath>

RequestTimeline::RequestTimeline(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("requestTimeline"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_stamps.fill(kNoTime);
    m_placeholder = tr("Click a request to see its timeline.");
}

void RequestTimeline::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    update();
}

void RequestTimeline::setStamps(const std::array<qint64, kStampCount> &stamps)
{
    m_stamps = stamps;
    m_empty = std::all_of(stamps.begin(), stamps.end(), [](qint64 t) { return t == kNoTime; });
    update();
}

void RequestTimeline::setMinimumSpan(qint64 ns)
{
    m_minimumSpanNs = qMax<qint64>(0, ns);
    update();
}

QSize RequestTimeline::sizeHint() const
{
    return {480, fontMetrics().height() * 4 + 28};
}

QSize RequestTimeline::minimumSizeHint() const
{
    return {200, sizeHint().height()};
}

void RequestTimeline::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (m_empty) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, m_placeholder);
        return;
    }
    qint64 first = kNoTime;
    qint64 last = kNoTime;
    for (const qint64 t : m_stamps) {
        if (t == kNoTime)
            continue;
        first = first == kNoTime ? t : qMin(first, t);
        last = last == kNoTime ? t : qMax(last, t);
    }
    const int line = fontMetrics().height();
    const int margin = 12;
    const QRect bar(margin, line + 8, width() - 2 * margin, line + 6);
    const TimeWindow window{0, qMax<qint64>(1, qMax(last - first, m_minimumSpanNs))};
    auto xOf = [&](qint64 t) { return bar.left() + SwimlaneCoordinates::timeToX(t - first, window, bar.width()); };

    // Segments between consecutive observed stamps: a phase, or residual.
    int previous = -1;
    for (int s = 0; s < kStampCount; ++s) {
        if (m_stamps[size_t(s)] == kNoTime)
            continue;
        if (previous >= 0) {
            const bool phase = s == previous + 1;
            const QColor colour = phase ? PhaseColors::of(static_cast<Phase>(previous)) : PhaseColors::residual();
            const double x0 = xOf(m_stamps[size_t(previous)]);
            const double x1 = xOf(m_stamps[size_t(s)]);
            const QRectF segment(x0, bar.top(), qMax(1.0, x1 - x0), bar.height());
            painter.fillRect(segment, colour);
            const QString name = phase ? phaseLabel(static_cast<Phase>(previous)) : tr("residual");
            if (fontMetrics().horizontalAdvance(name) + 4 < segment.width()) {
                painter.setPen(palette().color(QPalette::Text));
                painter.drawText(QRectF(x0, 2, segment.width(), line), Qt::AlignCenter, name);
            }
        }
        previous = s;
    }

    // Axis in a unit chosen for the request's length.
    const qint64 step = SwimlaneCoordinates::tickStep(window.duration(), bar.width(), 80.0);
    const auto unit = SwimlaneCoordinates::unitForSpan(window.duration());
    painter.setPen(palette().color(QPalette::Text));
    const int axisY = bar.bottom() + 4;
    painter.drawLine(bar.left(), axisY, bar.right(), axisY);
    for (qint64 t = 0; t <= window.duration(); t += step) {
        const int x = int(std::lround(xOf(first + t)));
        painter.drawLine(x, axisY, x, axisY + 4);
        const QString label = SwimlaneCoordinates::formatTick(t, step, unit);
        const int w = fontMetrics().horizontalAdvance(label);
        painter.drawText(QRect(qBound(0, x - w / 2, width() - w - 1), axisY + 5, w + 1, line), Qt::AlignLeft, label);
    }
    painter.drawText(QRect(0, axisY + 5 + line, width(), line), Qt::AlignCenter,
                     tr("Time since client send (%1)").arg(unit.symbol));
}
