#include "RequestText.h"

#include "PhaseColors.h"
#include "analysis/requests/Metric.h"
#include "store/RequestTable.h"

#include <QLocale>

#include <cmath>

namespace RequestText {

QString milliseconds(double ms)
{
    if (std::isnan(ms))
        return QStringLiteral("\u2014");
    if (std::abs(ms) >= 10'000.0)
        return QString::number(ms / 1000.0, 'f', 2) + QStringLiteral(" s");
    if (ms != 0.0 && std::abs(ms) < 1.0)
        return QString::number(ms * 1000.0, 'f', 0) + QStringLiteral(" \u00b5s");
    return QString::number(ms, 'f', std::abs(ms) < 100.0 ? 2 : 1) + QStringLiteral(" ms");
}

QString inMilliseconds(double ms)
{
    if (std::isnan(ms))
        return QStringLiteral("\u2014");
    return QString::number(ms, 'f', std::abs(ms) < 100.0 ? 2 : 1) + QStringLiteral(" ms");
}

QString perToken(double ms)
{
    if (std::isnan(ms))
        return QStringLiteral("\u2014 (one token)");
    return QString::number(ms, 'f', 2) + QStringLiteral(" ms/token");
}

QList<QPair<QString, QString>> facts(const RequestTable &table, qint32 row, Boundary boundary)
{
    QList<QPair<QString, QString>> lines;
    lines.append({QStringLiteral("Request"), table.idText(row)});
    for (const AttributeColumn &column : table.attributes()) {
        const QString value = column.text(row);
        lines.append({column.name(), value.isEmpty() ? QStringLiteral("(none)") : value});
    }
    const QLocale locale(QLocale::English, QLocale::UnitedStates); // same digits everywhere
    lines.append({QStringLiteral("Tokens"),
                  QStringLiteral("%1 prompt \u2192 %2 output")
                      .arg(locale.toString(table.promptTokens(row)), locale.toString(table.outputTokens(row)))});
    lines.append({QStringLiteral("TTFT (%1)").arg(boundaryKey(boundary)),
                  milliseconds(metricValueMs(table, row, Metric::Ttft, boundary))});
    lines.append({QStringLiteral("ITL"), perToken(metricValueMs(table, row, Metric::Itl, boundary))});
    lines.append({QStringLiteral("E2E"), milliseconds(metricValueMs(table, row, Metric::E2e, boundary))});
    for (const Phase phase : kAllPhases) {
        const double ms = metricValueMs(table, row, phaseMetric(phase), boundary);
        lines.append({phaseLabel(phase), std::isnan(ms) ? QStringLiteral("not observed") : milliseconds(ms)});
    }
    return lines;
}

QString tooltipHtml(const RequestTable &table, qint32 row, Boundary boundary)
{
    const auto lines = facts(table, row, boundary);
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString swatch;
        for (const Phase phase : kAllPhases) {
            if (lines[i].first == phaseLabel(phase))
                swatch = QStringLiteral("<span style='color:%1'>\u25a0</span> ").arg(PhaseColors::of(phase).name());
        }
        const bool title = i == 0;
        html += QStringLiteral("<tr><td>%1%2</td><td>&nbsp;&nbsp;%3%4%5</td></tr>")
                    .arg(swatch, lines[i].first.toHtmlEscaped(), title ? QStringLiteral("<b>") : QString(),
                         lines[i].second.toHtmlEscaped(), title ? QStringLiteral("</b>") : QString());
    }
    html += QStringLiteral("</table>");
    return html;
}

} // namespace RequestText
