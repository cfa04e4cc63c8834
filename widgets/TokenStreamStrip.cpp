#include "TokenStreamStrip.h"

#include "SwimlaneCoordinates.h"
#include "store/RequestTable.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kLabelWidth = 52;
constexpr int kHistogramWidth = 190;
constexpr int kNarrowestRows = 360; // tick rows narrower than this put the histogram below them

QString ms(double value)
{
    return std::isnan(value) ? QStringLiteral("-") : QString::number(value, 'f', value < 10.0 ? 2 : 1);
}

} // namespace

TokenStreamStrip::TokenStreamStrip(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("tokenStreamStrip"));
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

namespace {

bool histogramBeside(int width)
{
    return width >= kLabelWidth + kNarrowestRows + 8 + kHistogramWidth;
}

int ticksHeight(int line)
{
    return line * 8 + 24; // two rows, the axis labels and a caption of up to two lines
}

int histogramHeight(int line)
{
    return line * 6 + 12;
}

} // namespace

int TokenStreamStrip::heightForWidth(int width) const
{
    const int line = fontMetrics().height();
    return histogramBeside(width) ? ticksHeight(line) : ticksHeight(line) + histogramHeight(line);
}

QSize TokenStreamStrip::sizeHint() const
{
    const int width = kLabelWidth + kNarrowestRows + 8 + kHistogramWidth;
    return {width, heightForWidth(width)};
}

QSize TokenStreamStrip::minimumSizeHint() const
{
    const int width = kLabelWidth + 200;
    return {width, heightForWidth(width)};
}

QRect TokenStreamStrip::tickArea() const
{
    const int line = fontMetrics().height();
    if (histogramBeside(width()))
        return {0, 0, width() - kHistogramWidth - 8, height()};
    return {0, 0, width(), qMin(height(), ticksHeight(line))};
}

QRect TokenStreamStrip::histogramArea() const
{
    const QRect ticks = tickArea();
    if (histogramBeside(width()))
        return {ticks.right() + 8, 2, kHistogramWidth, height() - 4};
    // Below the rows, no wider than it reads well, under the rows' start.
    return {kLabelWidth, ticks.bottom() + 4, qMin(width() - kLabelWidth - 4, 420), height() - ticks.bottom() - 6};
}

void TokenStreamStrip::setRequest(const RequestTable *table, qint32 row, const StallRule &rule)
{
    m_server = {};
    m_client = {};
    m_gaps = {};
    m_logBins = false;
    m_caption.clear();
    if (table && row >= 0 && row < table->rowCount()) {
        const qint32 tokens = table->outputTokens(row);
        for (auto [side, timeline] :
             {std::pair{&m_server, &table->serverTokens()}, std::pair{&m_client, &table->clientTokens()}}) {
            side->events = timeline->events(row);
            if (side->events.empty())
                continue;
            side->stalls = RequestStream::stalls(*timeline, row, rule);
            side->stats = RequestStream::analyse(*timeline, row, tokens, rule);
        }
    }
    m_begin = std::numeric_limits<qint64>::max();
    m_end = std::numeric_limits<qint64>::min();
    for (const Side *side : {&m_server, &m_client}) {
        for (const auto &event : side->events) {
            m_begin = qMin(m_begin, event.time);
            m_end = qMax(m_end, event.time);
        }
    }
    if (m_begin > m_end) {
        m_begin = 0;
        m_end = 1;
    }
    m_end = qMax(m_end, m_begin + 1);

    // The histogram shows what the user saw (client events) when recorded.
    const Side &shown = m_client.events.empty() ? m_server : m_client;
    const TokenTimeline *timeline
        = table ? (&shown == &m_client ? &table->clientTokens() : &table->serverTokens()) : nullptr;
    if (timeline && !shown.events.empty()) {
        std::vector<double> gapMs;
        for (const StreamGap &gap : RequestStream::gaps(*timeline, row))
            gapMs.push_back(double(gap.ns) / 1e6);
        std::sort(gapMs.begin(), gapMs.end());
        // Log bins when a stall would crush the ordinary gaps into one bar.
        m_logBins = !gapMs.empty() && gapMs.front() > 0.0 && gapMs.back() > 20.0 * gapMs.front();
        m_gaps = HistogramBinning::ofSorted(gapMs, qMin(24, qMax(6, int(gapMs.size()) / 4)), m_logBins);
        m_stallThresholdMs = double(shown.stats.stallThresholdNs) / 1e6;
        m_histogramSide = &shown == &m_client ? tr("client") : tr("server");
    }
    QStringList parts;
    for (const auto &[side, name] : {std::pair{&m_server, tr("server")}, std::pair{&m_client, tr("client")}}) {
        if (side->events.empty())
            continue;
        const auto &s = side->stats;
        QString part = tr("%1: %2 events, gap p50 %3 / p95 %4 / max %5 ms, %6 stall(s)")
                           .arg(name)
                           .arg(s.events)
                           .arg(ms(s.p50GapMs), ms(s.p95GapMs), ms(s.maxGapMs))
                           .arg(s.stalls);
        if (s.multiTokenEvents > 0)
            part += tr(", %1 events carried several tokens").arg(s.multiTokenEvents);
        else if (s.chunkingInferred)
            part += tr(", chunked: %1 tokens per event").arg(s.tokensPerEvent, 0, 'f', 1);
        parts << part;
    }
    m_caption = parts.join(QStringLiteral("; "));
    setToolTip(m_caption + QLatin1Char('\n') + tr("Stall: %1").arg(rule.describe()));
    update();
}

void TokenStreamStrip::paintRow(QPainter &painter, const Side &side, const QRect &band, const QString &label) const
{
    const QPalette &pal = palette();
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRect(0, band.top(), kLabelWidth - 4, band.height()), Qt::AlignRight | Qt::AlignVCenter, label);
    painter.fillRect(band, pal.color(QPalette::AlternateBase));
    if (side.events.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(band, Qt::AlignCenter, tr("not recorded"));
        return;
    }
    const TimeWindow window{m_begin, m_end + 1};
    const auto xOf = [&](qint64 t) { return band.left() + SwimlaneCoordinates::timeToX(t, window, band.width()); };
    // Stalls first, hatched across the row, so ticks stay on top.
    QColor stall = pal.color(QPalette::Text);
    stall.setAlpha(150);
    for (const StreamGap &gap : side.stalls) {
        const QRectF span(QPointF(xOf(gap.startNs), band.top()), QPointF(xOf(gap.startNs + gap.ns), band.bottom()));
        painter.fillRect(span, QBrush(stall, Qt::BDiagPattern));
        painter.setPen(QPen(stall, 1.0));
        painter.drawRect(span);
    }
    const QColor tick(0x00, 0x72, 0xB2);
    const int line = fontMetrics().height();
    double labelEnd = -1e9; // a count is written only where it does not run into the previous one
    for (const auto &event : side.events) {
        const double x = xOf(event.time);
        const double height = event.tokens > 1 ? band.height() : band.height() * 0.55;
        painter.setPen(QPen(tick, event.tokens > 1 ? 2.0 : 1.0));
        painter.drawLine(QPointF(x, band.bottom()), QPointF(x, band.bottom() - height));
        const QString count = QString::number(event.tokens);
        const double width = fontMetrics().horizontalAdvance(count);
        if (event.tokens > 1 && band.height() > line && x + 2 > labelEnd + 3 && x + 2 + width <= band.right()) {
            painter.setPen(pal.color(QPalette::Text));
            painter.drawText(QPointF(x + 2, band.top() + line - 3), count);
            labelEnd = x + 2 + width;
        }
    }
}

void TokenStreamStrip::paintHistogram(QPainter &painter, const QRect &area) const
{
    const QPalette &pal = palette();
    const int line = fontMetrics().height();
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRect(area.left(), area.top(), area.width(), line), Qt::AlignCenter,
                     m_logBins ? tr("%1 gaps (ms, log scale)").arg(m_histogramSide)
                               : tr("%1 gaps (ms)").arg(m_histogramSide));
    if (m_gaps.binCount() == 0)
        return;
    const QRect plot(area.left() + 4, area.top() + line + 2, area.width() - 8, area.height() - 2 * line - 6);
    qint64 peak = 1;
    for (const qint64 count : m_gaps.counts)
        peak = qMax(peak, count);
    const double lo = m_gaps.edges.front();
    const double hi = qMax(m_gaps.edges.back(), lo + 1e-9);
    const auto scale = [this](double v) { return m_logBins ? std::log10(qMax(v, 1e-9)) : v; };
    const auto xOf = [&](double v) {
        return plot.left() + (scale(v) - scale(lo)) / qMax(1e-12, scale(hi) - scale(lo)) * plot.width();
    };
    for (int bin = 0; bin < m_gaps.binCount(); ++bin) {
        const double h = double(m_gaps.counts[size_t(bin)]) / double(peak) * plot.height();
        const QRectF bar(QPointF(xOf(m_gaps.edges[size_t(bin)]), plot.bottom() - h),
                         QPointF(qMax(xOf(m_gaps.edges[size_t(bin) + 1]) - 1.0, xOf(m_gaps.edges[size_t(bin)]) + 1.0),
                                 plot.bottom()));
        painter.fillRect(bar, QColor(0x00, 0x9E, 0x73));
    }
    painter.setPen(pal.color(QPalette::Text));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    if (m_stallThresholdMs >= lo && m_stallThresholdMs <= hi) {
        painter.setPen(QPen(pal.color(QPalette::Text), 1.0, Qt::DashLine));
        const double x = xOf(m_stallThresholdMs);
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    painter.setPen(pal.color(QPalette::Text));
    const QRect labels(plot.left(), plot.bottom() + 2, plot.width(), line);
    painter.drawText(labels, Qt::AlignLeft, ms(lo));
    painter.drawText(labels, Qt::AlignRight, ms(hi));
    painter.drawText(QRect(plot.left(), plot.top(), plot.width(), line), Qt::AlignRight, tr("%1 per bin").arg(peak));
    if (m_stallThresholdMs >= lo && m_stallThresholdMs <= hi)
        painter.drawText(labels, Qt::AlignHCenter, tr("stall \u2265 %1 ms").arg(ms(m_stallThresholdMs)));
}

void TokenStreamStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!hasStream()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No per-token times for this request."));
        return;
    }
    const int line = fontMetrics().height();
    const QRect area = tickArea();
    const int right = area.right();
    const int rowHeight = qMax(line + 6, (ticksHeight(line) - 4 * line - 22) / 2);
    const QRect server(kLabelWidth, 4, right - kLabelWidth, rowHeight);
    const QRect client(kLabelWidth, server.bottom() + 6, right - kLabelWidth, rowHeight);
    paintRow(painter, m_server, server, tr("server"));
    paintRow(painter, m_client, client, tr("client"));

    // Shared time axis, from the first token (either side).
    const qint64 span = m_end + 1 - m_begin;
    const TimeWindow window{0, span};
    const qint64 step = SwimlaneCoordinates::tickStep(span, client.width(), 80.0);
    const auto unit = SwimlaneCoordinates::unitForSpan(span);
    const int axisY = client.bottom() + 4;
    painter.setPen(palette().color(QPalette::Text));
    painter.drawLine(client.left(), axisY, client.right(), axisY);
    for (qint64 t = 0; t <= span; t += step) {
        const int x = int(std::lround(client.left() + SwimlaneCoordinates::timeToX(t, window, client.width())));
        painter.drawLine(x, axisY, x, axisY + 4);
        const QString label = SwimlaneCoordinates::formatTick(t, step, unit);
        const int w = fontMetrics().horizontalAdvance(label);
        painter.drawText(QRect(qBound(client.left(), x - w / 2, right - w), axisY + 5, w + 1, line), Qt::AlignLeft,
                         label);
    }
    // The key wraps rather than running past the strip's edges.
    painter.drawText(QRect(4, axisY + 5 + line, right - 4, 2 * line + 2), Qt::AlignHCenter | Qt::TextWordWrap,
                     tr("Time since the first token (%1) \u00b7 hatched: stall \u00b7 tall tick with a count: an "
                        "event that carried several tokens")
                         .arg(unit.symbol));
    paintHistogram(painter, histogramArea());
}
