#include "ClassTableText.h"

#include "ReportFormat.h"
#include "TextTable.h"
#include "analysis/classes/ClassTable.h"

namespace ClassTableText {

QString estimate(const QuantileEstimate &estimate, int decimals)
{
    if (estimate.tooFew())
        return ReportFormat::tooFew();
    return QStringLiteral("%1 [%2\u2013%3]")
        .arg(ReportFormat::fixed(estimate.value, decimals), ReportFormat::fixed(estimate.lower, decimals),
             ReportFormat::fixed(estimate.upper, decimals));
}

QString table(const ClassTable &table, const QString &slice)
{
    QStringList dimensionNames;
    for (const auto &dimension : table.dimensions)
        dimensionNames << dimension.key;
    const QString unit = metricUnit(table.metric);
    const QString percentile = ReportFormat::percentileLabel(table.exceedanceQ);
    QStringList lines;
    lines << QStringLiteral("Percentiles of %1 by %2")
                 .arg(metricLabel(table.metric), dimensionNames.join(QStringLiteral(" \u00d7 ")));
    QString boundary = boundaryKey(table.boundary) + QStringLiteral(" boundary");
    if (table.metric == Metric::Ttft)
        boundary += QStringLiteral(" (") + boundarySpan(table.boundary) + QLatin1Char(')');
    lines << QStringLiteral("Coordinates: %1 | %2 in %3 | slice: %4 (%5 requests)")
                 .arg(boundary, metricLabel(table.metric), unit, slice)
                 .arg(table.sliceRequests);
    if (!table.error.isEmpty()) {
        lines << QStringLiteral("Error: ") + table.error;
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("Percentiles: seed interpolation; [low\u2013high] = distribution-free 95% interval "
                            "from order statistics");
    lines << QStringLiteral("Exceedance set: %1 requests above the overall %2 of %3 %4")
                 .arg(table.exceedanceSize)
                 .arg(percentile, ReportFormat::fixed(table.exceedanceThreshold), unit);
    lines << QString();

    QStringList headers = {dimensionNames.join(QStringLiteral(" \u00b7 ")), QStringLiteral("requests"),
                           QStringLiteral("share"), QStringLiteral("n")};
    for (const double q : kClassQuantiles)
        headers << ReportFormat::percentileLabel(q) + QStringLiteral(" [95% CI]");
    headers << QStringLiteral("above ") + percentile << QStringLiteral("of set") << QString();
    using Align = TextTable::Align;
    std::vector<Align> alignment = {Align::Left, Align::Right, Align::Right, Align::Right};
    for (size_t i = 0; i < kClassQuantiles.size(); ++i)
        alignment.push_back(Align::Right);
    alignment.insert(alignment.end(), {Align::Right, Align::Right, Align::Left});
    TextTable text(headers, alignment);
    const auto addCell = [&](const ClassCell &cell) {
        QStringList row = {cell.label(), QString::number(cell.requests), ReportFormat::share(cell.requestShare),
                           QString::number(cell.n)};
        for (const auto &quantile : cell.quantiles)
            row << estimate(quantile);
        row << QString::number(cell.exceedanceCount) << ReportFormat::share(cell.exceedanceShare)
            << (cell.small ? QStringLiteral("small") : QString());
        text.addRow(row);
    };
    for (const auto &cell : table.cells)
        addCell(cell);
    addCell(table.overall);
    lines << text.render();
    lines << QString();

    bool anySmall = table.overall.small;
    for (const auto &cell : table.cells)
        anySmall = anySmall || cell.small;
    if (anySmall) {
        lines << QStringLiteral("small: fewer than %1 requests, too few to hold a p95 interval; read such a "
                                "class as anecdotes, not a percentile.")
                     .arg(QuantileInterval::minimumSampleSize(kClassQuantiles[kHeadlineQuantile]));
    }
    QStringList needs;
    for (const double q : kClassQuantiles) {
        needs << QStringLiteral("%1%2 for %3")
                     .arg(QuantileInterval::minimumSampleSize(q))
                     .arg(needs.isEmpty() ? QStringLiteral(" requests") : QString(), ReportFormat::percentileLabel(q));
    }
    lines << QStringLiteral("A 95% interval needs at least %1.").arg(needs.join(QStringLiteral(", ")));
    if (table.mixture)
        lines << QStringLiteral("Warning: ") + table.mixture->text(table);
    return lines.join(QLatin1Char('\n'));
}

} // namespace ClassTableText
