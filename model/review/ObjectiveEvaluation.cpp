#include "ObjectiveEvaluation.h"

#include "analysis/stats/Percentile.h"
#include "analysis/stats/QuantileInterval.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>

namespace ObjectiveEvaluation {

ObjectiveCheck checkSorted(std::span<const double> sortedMs, const Objective &objective)
{
    ObjectiveCheck check;
    check.objective = objective;
    check.observedAt = observedBoundary(objective.metric, objective.boundary);
    check.n = qint64(sortedMs.size());
    if (sortedMs.empty())
        return check;
    check.valueMs = Percentile::ofSorted(sortedMs, objective.q);
    check.met = check.valueMs < objective.thresholdMs;
    const QuantileInterval interval = QuantileInterval::forSample(check.n, objective.q);
    if (interval.formed) {
        check.lowerMs = sortedMs[size_t(interval.lowerRank - 1)];
        check.upperMs = sortedMs[size_t(interval.upperRank - 1)];
        check.decided = check.upperMs < objective.thresholdMs || check.lowerMs >= objective.thresholdMs;
    }
    return check;
}

ObjectiveCheck check(const RequestTable &table, const Objective &objective)
{
    std::vector<double> values = Percentile::finiteValues(metricColumnMs(table, objective.metric, objective.boundary));
    std::sort(values.begin(), values.end());
    return checkSorted(values, objective);
}

ObjectiveCheck check(const RequestTable &table, std::span<const qint32> rows, const Objective &objective)
{
    std::vector<double> values;
    values.reserve(rows.size());
    for (const qint32 row : rows) {
        const double value = metricValueMs(table, row, objective.metric, objective.boundary);
        if (!std::isnan(value))
            values.push_back(value);
    }
    std::sort(values.begin(), values.end());
    return checkSorted(values, objective);
}

} // namespace ObjectiveEvaluation
