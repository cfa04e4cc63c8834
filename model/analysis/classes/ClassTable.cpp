#include "ClassTable.h"

#include "analysis/requests/MetricMean.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/Percentile.h"
#include "analysis/stats/SortedColumn.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace {

// Intervals depend on (n, q) only; many cells share an n.
class IntervalMemo
{
public:
    const QuantileInterval &get(qint64 n, double q)
    {
        const auto key = std::make_pair(n, q);
        auto found = m_memo.find(key);
        if (found == m_memo.end())
            found = m_memo.emplace(key, QuantileInterval::forSample(n, q)).first;
        return found->second;
    }

private:
    std::map<std::pair<qint64, double>, QuantileInterval> m_memo;
};

std::vector<CdfPoint> cdfOf(std::span<const double> sorted)
{
    std::vector<CdfPoint> points;
    const auto n = qsizetype(sorted.size());
    if (n == 0)
        return points;
    if (n <= ClassCell::kCdfPoints) {
        // Small classes: the exact step function, one point per request.
        points.push_back({sorted.front(), 0.0}); // CdfPoint{x, share}
        for (qsizetype i = 0; i < n; ++i)
            points.push_back({sorted[size_t(i)], double(i + 1) / double(n)});
        return points;
    }
    for (qsizetype i = 0; i <= ClassCell::kCdfPoints; ++i) {
        const double fraction = double(i) / double(ClassCell::kCdfPoints);
        points.push_back({Percentile::ofSorted(sorted, fraction), fraction});
    }
    return points;
}

void fillStatistics(ClassCell *cell, std::span<const double> sorted, Metric metric, double threshold,
                    IntervalMemo *memo, bool withCdf)
{
    cell->n = qint64(sorted.size());
    if (!sorted.empty()) // exact and order-free: a database's sums give the same
        cell->meanMs = MetricMean::ofValues(sorted, metric);
    for (size_t i = 0; i < kClassQuantiles.size(); ++i) {
        auto &estimate = cell->quantiles[i];
        estimate.q = kClassQuantiles[i];
        estimate.value = Percentile::ofSorted(sorted, estimate.q);
        estimate.interval = memo->get(cell->n, estimate.q);
        if (estimate.interval.formed) {
            estimate.lower = sorted[size_t(estimate.interval.lowerRank - 1)];
            estimate.upper = sorted[size_t(estimate.interval.upperRank - 1)];
        }
    }
    cell->small = cell->headline().tooFew();
    if (!std::isnan(threshold)) {
        const auto above = std::upper_bound(sorted.begin(), sorted.end(), threshold);
        cell->exceedanceCount = qint64(sorted.end() - above);
    }
    if (withCdf)
        cell->cdf = cdfOf(sorted);
}

} // namespace

ClassTable computeClassTable(const SortedColumn &metric, std::span<const ClassColumn> columns,
                             const RequestSlice &slice, const ClassTableSpec &spec)
{
    ClassTable table;
    table.metric = spec.metric;
    table.boundary = observedBoundary(spec.metric, spec.boundary);
    table.exceedanceQ = spec.exceedanceQ;
    table.sliceRequests = slice.size();
    for (const auto &column : columns)
        table.dimensions.push_back(column.dimension);
    if (columns.empty() || columns.size() > 2) {
        table.error = QStringLiteral("a class table splits by one or two dimensions");
        return table;
    }
    const qint64 first = columns[0].classCount();
    const qint64 second = columns.size() == 2 ? columns[1].classCount() : 1;
    if (first * second > ClassTable::kMaxClasses) {
        table.error = QStringLiteral("%1 classes are too many for a table; choose dimensions with fewer values")
                          .arg(first * second);
        return table;
    }
    const auto classCount = size_t(first * second);
    const quint32 *codesA = columns[0].codes.data();
    const quint32 *codesB = columns.size() == 2 ? columns[1].codes.data() : nullptr;
    const auto cellOf
        = [&](size_t row) { return size_t(codesA[row]) * size_t(second) + (codesB ? size_t(codesB[row]) : 0); };
    const quint8 *inSlice = slice.mask().data();
    const size_t rows = slice.mask().size();

    // Pass 1, in row order: requests and defined values per class. Pass 2,
    // in ascending order of the metric: each defined value appended to the
    // overall run and scattered into its class's run, so every run is sorted.
    const double *metricValues = metric.values.data();
    std::vector<qint64> requests(classCount, 0);
    std::vector<qint64> offsets(classCount + 1, 0);
    for (size_t row = 0; row < rows; ++row) {
        if (inSlice[row]) {
            const size_t cell = cellOf(row);
            ++requests[cell];
            offsets[cell + 1] += std::isnan(metricValues[row]) ? 0 : 1;
        }
    }
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    ColumnVector<double> overall(size_t(offsets.back()));
    ColumnVector<double> byClass(overall.size());
    std::vector<qint64> cursor(offsets.begin(), offsets.end() - 1);
    size_t next = 0;
    for (const qint32 row : metric.ascending) {
        if (inSlice[row]) {
            const double value = metricValues[size_t(row)];
            overall[next++] = value;
            byClass[size_t(cursor[cellOf(size_t(row))]++)] = value;
        }
    }

    IntervalMemo memo;
    table.exceedanceThreshold = Percentile::ofSorted(overall, spec.exceedanceQ);
    table.overall.classes = {QStringLiteral("overall")};
    table.overall.requests = slice.size();
    table.overall.requestShare = slice.size() > 0 ? 1.0 : 0.0;
    fillStatistics(&table.overall, overall, spec.metric, table.exceedanceThreshold, &memo, spec.withCdf);
    table.exceedanceSize = table.overall.exceedanceCount;
    table.overall.exceedanceShare = table.exceedanceSize > 0 ? 1.0 : 0.0;

    for (size_t cellIndex = 0; cellIndex < classCount; ++cellIndex) {
        if (requests[cellIndex] == 0)
            continue;
        ClassCell cell;
        cell.codes[0] = qint32(cellIndex / size_t(second));
        cell.classes << columns[0].classes[cell.codes[0]];
        if (codesB) {
            cell.codes[1] = qint32(cellIndex % size_t(second));
            cell.classes << columns[1].classes[cell.codes[1]];
        }
        cell.requests = requests[cellIndex];
        cell.requestShare = double(cell.requests) / double(table.sliceRequests);
        const std::span<const double> values(byClass.data() + offsets[cellIndex],
                                             size_t(offsets[cellIndex + 1] - offsets[cellIndex]));
        fillStatistics(&cell, values, spec.metric, table.exceedanceThreshold, &memo, spec.withCdf);
        if (table.exceedanceSize > 0)
            cell.exceedanceShare = double(cell.exceedanceCount) / double(table.exceedanceSize);
        table.cells.push_back(std::move(cell));
    }
    table.mixture = MixtureWarning::check(table);
    return table;
}
