#include "PhaseShiftBars.h"

#include "PhaseColors.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kRowHeight = 22;
constexpr int kMargin = 8;

QString signedMs(double ms)
{
    return (ms > 0 ? QStringLiteral("+") : QString()) + QString::number(ms, 'f', ms != 0.0 && std::abs(ms) < 1 ? 3 : 1)
        + QStringLiteral(" ms");
}

} // namespace

PhaseShiftBars::PhaseShiftBars(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("phaseShiftBars"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void PhaseShiftBars::setShift(PhaseShift shift)
{
    m_shift = std::move(shift);
    updateGeometry();
    update();
}

QList<QPair<QString, double>> PhaseShiftBars::bars() const
{
    QList<QPair<QString, double>> result;
    for (const auto &row : m_shift.phases) {
        if (row.baselineObserved > 0 || row.candidateObserved > 0)
            result.append({phaseLabel(row.phase), row.changeMs()});
    }
    if (!m_shift.isEmpty())
        result.append({tr("Residual (unobserved)"), double(m_shift.residualChangeNs) / 1e6});
    return result;
}

QSize PhaseShiftBars::sizeHint() const
{
    return {480, 2 * kMargin + kRowHeight * (int(bars().size()) + 2)};
}

QSize PhaseShiftBars::minimumSizeHint() const
{
    return {320, sizeHint().height()};
}

PhaseShiftBars::Geometry PhaseShiftBars::geometry() const
{
    Geometry g;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics metrics(font());
    g.valueWidth = metrics.horizontalAdvance(QStringLiteral("+0000.000 ms (moved most)"));
    double largest = 0.0;
    for (const auto &[label, ms] : bars()) {
        g.labelWidth = std::max(g.labelWidth, QFontMetrics(bold).horizontalAdvance(label));
        largest = std::max(largest, std::abs(ms));
    }
    g.labelWidth += 12;
    const int plotLeft = kMargin + g.labelWidth + g.valueWidth;
    const int plotRight = width() - kMargin - g.valueWidth;
    g.zeroX = (plotLeft + plotRight) / 2;
    const double half = std::max(1.0, double(plotRight - plotLeft) / 2.0);
    g.scale = largest > 0.0 ? half / largest : 0.0;
    g.top = kMargin + kRowHeight;
    return g;
}

int PhaseShiftBars::zeroLine() const
{
    return geometry().zeroX;
}

QRect PhaseShiftBars::barRect(int row) const
{
    const auto rows = bars();
    if (row < 0 || row >= rows.size())
        return {};
    const Geometry g = geometry();
    const double ms = rows[row].second;
    const int y = g.top + row * kRowHeight;
    const int length = int(std::lround(std::abs(ms) * g.scale));
    return ms < 0 ? QRect(g.zeroX - length, y + 4, length, kRowHeight - 8)
                  : QRect(g.zeroX, y + 4, length, kRowHeight - 8);
}

void PhaseShiftBars::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    painter.setPen(pal.color(QPalette::Text));
    const QFontMetrics metrics(font());
    if (m_shift.isEmpty()) {
        painter.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignLeft | Qt::TextWordWrap,
                         tr("No phase shift: a side has no request with the total observed."));
        return;
    }
    struct Row
    {
        QString label;
        double ms = 0.0;
        QColor colour;
        bool most = false;
    };
    std::vector<Row> rows;
    for (const auto &row : m_shift.phases) {
        if (row.baselineObserved > 0 || row.candidateObserved > 0)
            rows.push_back({phaseLabel(row.phase), row.changeMs(), PhaseColors::of(row.phase),
                            m_shift.movedMost && *m_shift.movedMost == row.phase});
    }
    rows.push_back(
        {tr("Residual (unobserved)"), double(m_shift.residualChangeNs) / 1e6, PhaseColors::residual(), false});
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Mean %1 change by phase: %2 in all (baseline %3 ms \u2192 candidate %4 ms)")
                         .arg(metricLabel(m_shift.total), signedMs(double(m_shift.totalChangeNs) / 1e6),
                              QString::number(m_shift.baselineMeanMs, 'f', 1),
                              QString::number(m_shift.candidateMeanMs, 'f', 1)));
    const Geometry g = geometry();
    const int zeroX = g.zeroX;
    const int top = g.top;
    const int labelWidth = g.labelWidth;
    const int valueWidth = g.valueWidth;
    painter.setPen(QPen(pal.color(QPalette::Mid), 1.0));
    painter.drawLine(zeroX, top, zeroX, top + kRowHeight * int(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row &row = rows[i];
        const int y = top + int(i) * kRowHeight;
        painter.setFont(row.most ? bold : font());
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRect(kMargin, y, labelWidth, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter, row.label);
        const QRect bar = barRect(int(i));
        const int length = bar.width();
        painter.fillRect(bar, row.colour);
        painter.setPen(QPen(pal.color(QPalette::Text), 0.5));
        if (length > 0)
            painter.drawRect(bar);
        painter.setPen(pal.color(QPalette::Text));
        const QString value = signedMs(row.ms) + (row.most ? tr(" (moved most)") : QString());
        if (row.ms < 0)
            painter.drawText(QRect(zeroX - length - valueWidth - 4, y, valueWidth, kRowHeight),
                             Qt::AlignRight | Qt::AlignVCenter, value);
        else
            painter.drawText(QRect(zeroX + length + 4, y, valueWidth, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                             value);
    }
    painter.setFont(font());
    painter.setPen(pal.color(QPalette::PlaceholderText));
    const int y = top + kRowHeight * int(rows.size());
    painter.drawText(
        QRect(kMargin, y, width() - 2 * kMargin, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
        tr("\u2190 faster   |   slower \u2192   Means add up exactly; each phase's percentile on both sides is "
           "under \u201cStop rule & workload\u201d, never added."));
}
