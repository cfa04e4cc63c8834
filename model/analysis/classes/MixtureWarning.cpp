#include "MixtureWarning.h"

#include "ClassTable.h"

std::optional<MixtureWarning> MixtureWarning::check(const ClassTable &table)
{
    if (table.exceedanceSize < kMinimumSetSize)
        return std::nullopt;
    qsizetype carrier = -1;
    for (size_t i = 0; i < table.cells.size(); ++i) {
        if (carrier < 0 || table.cells[i].exceedanceCount > table.cells[size_t(carrier)].exceedanceCount)
            carrier = qsizetype(i);
    }
    if (carrier < 0)
        return std::nullopt;
    const ClassCell &cell = table.cells[size_t(carrier)];
    if (cell.exceedanceShare < kDominantSetShare || cell.requestShare > kMaximumRequestShare)
        return std::nullopt;
    MixtureWarning warning;
    warning.cell = carrier;
    warning.classLabel = cell.label();
    warning.exceedanceCount = cell.exceedanceCount;
    warning.exceedanceSize = table.exceedanceSize;
    warning.exceedanceShare = cell.exceedanceShare;
    warning.requestShare = cell.requestShare;
    return warning;
}

QString MixtureWarning::text(const ClassTable &table) const
{
    const QString percentile = QStringLiteral("p%1").arg(table.exceedanceQ * 100.0, 0, 'g', 4);
    return QStringLiteral("Mixture: the overall %1 %2 is carried by %3. %4 of the %5 requests above it "
                          "(%6%) are %3, which is %7% of all requests; read the class rows, not the "
                          "overall row.")
        .arg(percentile, metricLabel(table.metric), classLabel)
        .arg(exceedanceCount)
        .arg(exceedanceSize)
        .arg(exceedanceShare * 100.0, 0, 'f', 0)
        .arg(requestShare * 100.0, 0, 'f', 0);
}
