#include "MixtureWarning.h"

#include "ClassTable.h"

#include <QLocale>

#include <map>

namespace {

QString named(const ClassDimension &dimension, const QString &value)
{
    return QStringLiteral("%1 = %2").arg(dimension.label, value);
}

QString percent(double share)
{
    return QString::number(share * 100.0, 'g', 3) + QLatin1Char('%');
}

struct Candidate
{
    qsizetype cell = -1;
    int dimension = -1;
    QString label;
    qint64 exceedanceCount = 0;
    qint64 requests = 0;
};

} // namespace

std::optional<MixtureWarning> MixtureWarning::check(const ClassTable &table)
{
    if (table.exceedanceSize < kMinimumSetSize || table.sliceRequests <= 0)
        return std::nullopt;
    std::vector<Candidate> candidates;
    for (size_t i = 0; i < table.cells.size(); ++i) {
        const ClassCell &cell = table.cells[i];
        QStringList parts;
        for (qsizetype d = 0; d < cell.classes.size() && d < qsizetype(table.dimensions.size()); ++d)
            parts << named(table.dimensions[size_t(d)], cell.classes[d]);
        candidates.push_back(
            {qsizetype(i), -1, parts.join(QStringLiteral(" \u00b7 ")), cell.exceedanceCount, cell.requests});
    }
    if (table.dimensions.size() == 2) {
        // Each dimension's classes on their own, summed over the other's.
        for (int d = 0; d < 2; ++d) {
            std::map<qint32, Candidate> byCode;
            for (const ClassCell &cell : table.cells) {
                Candidate &candidate = byCode[cell.codes[size_t(d)]];
                if (candidate.label.isEmpty()) {
                    candidate.dimension = d;
                    candidate.label = named(table.dimensions[size_t(d)], cell.classes[d]);
                }
                candidate.exceedanceCount += cell.exceedanceCount;
                candidate.requests += cell.requests;
            }
            for (auto &[code, candidate] : byCode)
                candidates.push_back(std::move(candidate));
        }
    }
    const double setSize = double(table.exceedanceSize);
    const double sliceSize = double(table.sliceRequests);
    const Candidate *chosen = nullptr;
    for (const Candidate &candidate : candidates) {
        const double setShare = double(candidate.exceedanceCount) / setSize;
        const double requestShare = double(candidate.requests) / sliceSize;
        if (setShare < kDominantSetShare || setShare < kMinimumLift * requestShare)
            continue;
        if (!chosen || candidate.exceedanceCount > chosen->exceedanceCount
            || (candidate.exceedanceCount == chosen->exceedanceCount && candidate.requests < chosen->requests))
            chosen = &candidate;
    }
    if (!chosen)
        return std::nullopt;
    MixtureWarning warning;
    warning.cell = chosen->cell;
    warning.dimension = chosen->dimension;
    warning.classLabel = chosen->label;
    warning.exceedanceCount = chosen->exceedanceCount;
    warning.exceedanceSize = table.exceedanceSize;
    warning.exceedanceShare = double(chosen->exceedanceCount) / setSize;
    warning.requestShare = double(chosen->requests) / sliceSize;
    return warning;
}

QString MixtureWarning::text(const ClassTable &table) const
{
    const QString percentile = QStringLiteral("p%1").arg(table.exceedanceQ * 100.0, 0, 'g', 4);
    QString which = classLabel;
    if (dimension >= 0 && table.dimensions.size() == 2)
        which += QStringLiteral(" (every %1 together)").arg(table.dimensions[size_t(1 - dimension)].label);
    return QStringLiteral("Mixture: the overall %1 %2 is carried by %3. %4 of the %5 requests above it (%6) are in "
                          "that class, which is %7 of all requests: %8 times its share. Read the class rows, not "
                          "the overall row. (Warned when one class holds at least half of the requests above the "
                          "percentile and at least twice its share of all requests.)")
        .arg(percentile, metricLabel(table.metric), which)
        .arg(QLocale(QLocale::English).toString(exceedanceCount), QLocale(QLocale::English).toString(exceedanceSize))
        .arg(percent(exceedanceShare), percent(requestShare))
        .arg(lift(), 0, 'f', 1);
}
