#include "ComparisonSamples.h"

#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassTable.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "analysis/stats/Percentile.h"
#include "analysis/stats/ValueSort.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace {

// TTFT, E2E and phases are differences of two stamps: they are collected
// and sorted as integer ns (fewer radix passes than doubles, and exact) and
// turned into ms once. ITL divides by the token count and stays a double.
bool isStampDifference(Metric metric)
{
    return metric != Metric::Itl && !isStreamMetric(metric);
}

std::pair<Stamp, Stamp> metricStamps(Metric metric, Boundary boundary)
{
    switch (metric) {
    case Metric::Ttft:
        return {boundaryStart(boundary), boundaryFirstToken(boundary)};
    case Metric::E2e:
    case Metric::Itl:
        return {Stamp::ClientSend, Stamp::LastTokenClient};
    default:
        return {phaseBegin(metricPhase(metric)), phaseEnd(metricPhase(metric))};
    }
}

std::vector<double> toMs(std::span<const qint64> ns)
{
    std::vector<double> ms(ns.size());
    for (size_t i = 0; i < ns.size(); ++i)
        ms[i] = double(ns[i]) / 1e6;
    return ms;
}

// Ascending ms values of a stamp-difference metric on the side's rows.
std::vector<double> sortedStampMetric(const RequestTable &table, const quint8 *mask, Metric metric, Boundary boundary)
{
    const auto [begin, end] = metricStamps(metric, boundary);
    const auto &from = table.stampColumn(begin);
    const auto &to = table.stampColumn(end);
    std::vector<qint64> ns;
    for (size_t row = 0; row < from.size(); ++row) {
        if (mask[row] && from[row] != kNoTime && to[row] != kNoTime)
            ns.push_back(to[row] - from[row]);
    }
    ValueSort::ascending(std::span<qint64>(ns));
    return toMs(ns);
}

std::vector<double> sortedItl(const RequestTable &table, const quint8 *mask)
{
    std::vector<double> values;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!mask[row])
            continue;
        const double itl = metricValueMs(table, row, Metric::Itl, Boundary::Client);
        if (!std::isnan(itl))
            values.push_back(itl);
    }
    ValueSort::ascending(std::span<double>(values));
    return values;
}

// How a side's class codes map onto the cells shared by both sides.
struct CellMap
{
    std::vector<const ClassColumn *> columns;     // this side's columns, one per dimension
    std::vector<std::vector<quint32>> unionIndex; // per dimension: side code -> union label index
    std::vector<qint64> strides;
    qint64 cells = 1;

    qint64 cellOf(size_t row) const
    {
        qint64 cell = 0;
        for (size_t d = 0; d < columns.size(); ++d)
            cell += qint64(unionIndex[d][columns[d]->codes[row]]) * strides[d];
        return cell;
    }
};

// The metric grouped by cell, each run sorted, plus the overall sorted values.
template<typename Value, typename ValueOf>
void groupMetric(const RequestTable &table, const quint8 *mask, const CellMap &map, ValueOf valueOf, SideSamples *side)
{
    const size_t rows = size_t(table.rowCount());
    side->cellRequests.assign(size_t(map.cells), 0);
    std::vector<qint64> offsets(size_t(map.cells) + 1, 0);
    std::vector<qint64> cellOfRow(rows, -1);
    std::vector<Value> valueOfRow(rows);
    for (size_t row = 0; row < rows; ++row) {
        if (!mask[row])
            continue;
        const qint64 cell = map.cellOf(row);
        ++side->cellRequests[size_t(cell)];
        Value value{};
        if (valueOf(row, &value)) {
            cellOfRow[row] = cell;
            valueOfRow[row] = value;
            ++offsets[size_t(cell) + 1];
        }
    }
    for (size_t i = 1; i < offsets.size(); ++i)
        offsets[i] += offsets[i - 1];
    std::vector<Value> grouped(size_t(offsets.back()));
    std::vector<qint64> cursor(offsets.begin(), offsets.end() - 1);
    for (size_t row = 0; row < rows; ++row) {
        if (cellOfRow[row] >= 0)
            grouped[size_t(cursor[size_t(cellOfRow[row])]++)] = valueOfRow[row];
    }
    std::vector<Value> overall(grouped);
    ValueSort::ascending(std::span<Value>(overall));
    for (qint64 cell = 0; cell < map.cells; ++cell) {
        ValueSort::ascending(std::span<Value>(grouped.data() + offsets[size_t(cell)],
                                              size_t(offsets[size_t(cell) + 1] - offsets[size_t(cell)])));
    }
    if constexpr (std::is_same_v<Value, qint64>) {
        side->metric = toMs(overall);
        side->cellValues = toMs(grouped);
    } else {
        side->metric = std::move(overall);
        side->cellValues = std::move(grouped);
    }
    side->cellOffsets = std::move(offsets);
}

struct SideInput
{
    const ComparisonSide *side = nullptr;
    CellMap map;
    std::vector<std::vector<qint64>> dimensionCounts; // per dimension, per union label
};

void prepareSide(SideInput &input, const ComparisonSpec &spec, bool workflows, bool baselineSide,
                 const std::atomic<bool> *cancelled, SideSamples *out)
{
    const ComparisonSide &side = *input.side;
    const RequestTable &table = side.table();
    const quint8 *mask = side.rows.mask().data();
    const auto stop = [cancelled] { return cancelled && cancelled->load(std::memory_order_relaxed); };
    out->requests = side.size();
    out->rejected = side.rejected;

    if (isStampDifference(spec.metric)) {
        const auto [begin, end] = metricStamps(spec.metric, spec.boundary);
        const auto &from = table.stampColumn(begin);
        const auto &to = table.stampColumn(end);
        groupMetric<qint64>(
            table, mask, input.map,
            [&](size_t row, qint64 *value) {
                if (from[row] == kNoTime || to[row] == kNoTime)
                    return false;
                *value = to[row] - from[row];
                return true;
            },
            out);
    } else {
        groupMetric<double>(
            table, mask, input.map,
            [&](size_t row, double *value) {
                *value = metricValueMs(table, qsizetype(row), spec.metric, spec.boundary);
                return !std::isnan(*value);
            },
            out);
    }
    if (stop())
        return;
    for (size_t d = 0; d < input.map.columns.size(); ++d) {
        auto &counts = input.dimensionCounts[d];
        const auto &codes = input.map.columns[d]->codes;
        for (size_t row = 0; row < codes.size(); ++row) {
            if (mask[row])
                ++counts[input.map.unionIndex[d][codes[row]]];
        }
    }

    const Metric total = PhaseAttribution::totalFor(spec.metric);
    const auto inside = total == Metric::E2e ? std::span<const Phase>(kAllPhases) : ttftPhases(spec.boundary);
    for (const Phase phase : inside) {
        if (stop())
            return;
        out->phases[size_t(phase)] = spec.metric == phaseMetric(phase)
            ? out->metric
            : sortedStampMetric(table, mask, phaseMetric(phase), spec.boundary);
    }
    out->itl = spec.metric == Metric::Itl ? out->metric : sortedItl(table, mask);
    out->e2e = spec.metric == Metric::E2e ? out->metric : sortedStampMetric(table, mask, Metric::E2e, spec.boundary);
    if (stop())
        return;
    out->sums = PhaseSums::of(table, side.rows, total, spec.boundary);
    out->workload = WorkloadProfile::of(table, side.rows);
    Slo slo;
    if (spec.metric == Metric::Ttft && std::isfinite(spec.sloMs))
        slo.ttftMs = spec.sloMs;
    slo.itlMs = spec.sloItlMs;
    out->goodput = ServiceLoad::goodput(table, slo, spec.boundary, std::max<qint64>(side.rejected, 0), &side.rows);
    if (baselineSide)
        out->tailSuspect = PhaseShift::tailSuspect(table, side.rows, spec.metric, spec.boundary, spec.q);
    if (workflows) {
        out->ttft
            = spec.metric == Metric::Ttft ? out->metric : sortedStampMetric(table, mask, Metric::Ttft, spec.boundary);
        out->criticalPath = CriticalPathShares::of(*side.store, side.rows, cancelled);
        if (stop())
            return;
        // One thread per side: the two sides already run in parallel.
        const WorkflowPaths paths = WorkflowPaths::compute(*side.store, 1, cancelled);
        if (paths.cancelled())
            return;
        const std::vector<qint32> rows = side.rows.rows();
        out->pathGroup
            = PathGroup::gather(*side.store, paths, SpanKeys::build(*side.store, spec.pathKey), rows,
                                total == Metric::E2e ? WorkflowPaths::Target::End : WorkflowPaths::Target::FirstToken);
    }
}

QStringList observedMetrics(const ComparisonSide &baseline, const ComparisonSide &candidate, Boundary boundary)
{
    QStringList keys;
    for (const Metric metric : allMetrics()) {
        bool both = true;
        for (const ComparisonSide *side : {&baseline, &candidate}) {
            const RequestTable &table = side->table();
            bool any = false;
            for (qsizetype row = 0; row < table.rowCount() && !any; ++row)
                any = side->rows.contains(row) && !std::isnan(metricValueMs(table, row, metric, boundary));
            both = both && any;
        }
        if (both)
            keys << metricKey(metric);
    }
    return keys;
}

QString describeSide(const ComparisonSide &side)
{
    return side.label.isEmpty() ? QStringLiteral("a side") : side.label;
}

} // namespace

std::span<const double> ComparisonSamples::sorted(qsizetype cell, bool candidateSide) const
{
    const SideSamples &side = candidateSide ? cand : base;
    if (cell < 0)
        return side.metric;
    return side.cell(cell);
}

std::vector<CdfPoint> ComparisonSamples::cdf(qsizetype cell, bool candidateSide, qsizetype points) const
{
    const auto values = sorted(cell, candidateSide);
    std::vector<CdfPoint> curve;
    const auto n = qsizetype(values.size());
    if (n == 0)
        return curve;
    if (n <= points) {
        curve.push_back({values.front(), 0.0});
        for (qsizetype i = 0; i < n; ++i)
            curve.push_back({values[size_t(i)], double(i + 1) / double(n)});
        return curve;
    }
    for (qsizetype i = 0; i <= points; ++i) {
        const double share = double(i) / double(points);
        curve.push_back({Percentile::ofSorted(values, share), share});
    }
    return curve;
}

std::shared_ptr<const ComparisonSamples> ComparisonSamples::prepare(ComparisonSide baseline, ComparisonSide candidate,
                                                                    const ComparisonSpec &spec,
                                                                    const std::atomic<bool> *cancelled)
{
    auto samples = std::make_shared<ComparisonSamples>();
    samples->baseline = std::move(baseline);
    samples->candidate = std::move(candidate);
    samples->spec = spec;
    samples->observedBoundary = ::observedBoundary(spec.metric, spec.boundary);
    const ComparisonSide &base = samples->baseline;
    const ComparisonSide &cand = samples->candidate;

    for (const ComparisonSide *side : {&base, &cand}) {
        const QString name = side == &base ? QStringLiteral("baseline") : QStringLiteral("candidate");
        if (!side->store || side->size() == 0) {
            const qint64 rejected = side->store ? qint64(side->store->rejected.size()) : 0;
            samples->error = QStringLiteral("the %1 (%2) has no requests to compare%3")
                                 .arg(name, describeSide(*side),
                                      rejected > 0 ? QStringLiteral("; its %1 records were all rejected").arg(rejected)
                                                   : QString());
            return samples;
        }
    }
    const bool baseWorkflows = base.store->workflows.rowCount() > 0;
    const bool candWorkflows = cand.store->workflows.rowCount() > 0;
    if (baseWorkflows != candWorkflows) {
        samples->error = QStringLiteral("the %1 holds agent workflows (%2) and the %3 single requests (%4): a "
                                        "workflow's TTFT and E2E span several calls, so they are not comparable with "
                                        "one request's; compare workflows with workflows")
                             .arg(baseWorkflows ? QStringLiteral("baseline") : QStringLiteral("candidate"),
                                  (baseWorkflows ? base : cand).store->format,
                                  baseWorkflows ? QStringLiteral("candidate") : QStringLiteral("baseline"),
                                  (baseWorkflows ? cand : base).store->format);
        return samples;
    }
    samples->workflows = baseWorkflows && candWorkflows;
    if (base.store->format != cand.store->format) {
        samples->notes << QStringLiteral("formats differ (baseline %1, candidate %2): compared on what both observe")
                              .arg(base.store->format, cand.store->format);
    }
    if (base.store == cand.store) {
        const auto both = base.rows.intersected(cand.rows).size();
        if (both > 0) {
            samples->notes << QStringLiteral("%1 requests are on both sides; the two samples are not independent, so "
                                             "the intervals are too narrow")
                                  .arg(both);
        }
    }
    if (spec.by.size() > 2) {
        samples->error = QStringLiteral("a comparison splits by at most two class dimensions");
        return samples;
    }

    // Class dimensions: both sides must have each, and share labels by text.
    std::vector<ClassColumn> baseColumns;
    std::vector<ClassColumn> candColumns;
    for (const QString &key : spec.by) {
        ClassDimension baseDimension;
        ClassDimension candDimension;
        const bool inBase = classDimensionFromKey(base.table(), key, &baseDimension);
        const bool inCand = classDimensionFromKey(cand.table(), key, &candDimension);
        if (!inBase || !inCand) {
            QStringList common;
            for (const auto &dimension : classDimensions(base.table())) {
                ClassDimension other;
                if (classDimensionFromKey(cand.table(), dimension.key, &other))
                    common << dimension.key;
            }
            samples->error = QStringLiteral("no dimension '%1' in the %2; dimensions both sides have: %3")
                                 .arg(key,
                                      !inBase && !inCand ? QStringLiteral("baseline or the candidate")
                                          : !inBase      ? QStringLiteral("baseline")
                                                         : QStringLiteral("candidate"),
                                      common.isEmpty() ? QStringLiteral("none") : common.join(QStringLiteral(", ")));
            return samples;
        }
        samples->dimensions.push_back(baseDimension);
        baseColumns.push_back(ClassColumn::build(base.table(), baseDimension, spec.bands));
        if (base.store == cand.store && baseDimension == candDimension)
            candColumns.push_back(baseColumns.back());
        else
            candColumns.push_back(ClassColumn::build(cand.table(), candDimension, spec.bands));
        // A many-valued number is banded at quartiles, which differ between
        // two traces: band both at the same edges (the baseline's) so a class
        // means the same thing on each side.
        ClassColumn &baseColumn = baseColumns.back();
        ClassColumn &candColumn = candColumns.back();
        if ((baseColumn.banded || candColumn.banded) && baseColumn.bandEdges != candColumn.bandEdges) {
            const std::vector<double> edges = baseColumn.banded ? baseColumn.bandEdges : candColumn.bandEdges;
            if (!edges.empty()) {
                baseColumn = ClassColumn::buildBanded(base.table(), baseDimension, edges);
                candColumn = ClassColumn::buildBanded(cand.table(), candDimension, edges);
                samples->notes << QStringLiteral("%1 is banded at the %2's quartiles on both sides")
                                      .arg(key,
                                           baseColumn.banded ? QStringLiteral("baseline")
                                                             : QStringLiteral("candidate"));
            }
        }
    }

    SideInput baseInput;
    SideInput candInput;
    baseInput.side = &base;
    candInput.side = &cand;
    std::vector<QStringList> unionLabels;
    for (size_t d = 0; d < baseColumns.size(); ++d) {
        QStringList labels = baseColumns[d].classes;
        for (const QString &label : candColumns[d].classes) {
            if (!labels.contains(label))
                labels << label;
        }
        for (auto *input : {&baseInput, &candInput}) {
            const ClassColumn &column = input == &baseInput ? baseColumns[d] : candColumns[d];
            std::vector<quint32> index(size_t(column.classCount()));
            for (qsizetype code = 0; code < column.classCount(); ++code)
                index[size_t(code)] = quint32(labels.indexOf(column.classes[code]));
            input->map.columns.push_back(&column);
            input->map.unionIndex.push_back(std::move(index));
            input->dimensionCounts.emplace_back(size_t(labels.size()), 0);
        }
        unionLabels.push_back(labels);
    }
    qint64 cells = 1;
    for (auto it = unionLabels.rbegin(); it != unionLabels.rend(); ++it) {
        baseInput.map.strides.insert(baseInput.map.strides.begin(), cells);
        cells *= it->size();
    }
    if (cells > ClassTable::kMaxClasses) {
        samples->error
            = QStringLiteral("%1 classes are too many to compare; choose dimensions with fewer values").arg(cells);
        return samples;
    }
    candInput.map.strides = baseInput.map.strides;
    baseInput.map.cells = candInput.map.cells = cells;

    // Both sides at once: they share nothing but read-only class columns.
    std::thread baseWorker(
        [&] { prepareSide(baseInput, samples->spec, samples->workflows, true, cancelled, &samples->base); });
    prepareSide(candInput, samples->spec, samples->workflows, false, cancelled, &samples->cand);
    baseWorker.join();
    if (cancelled && cancelled->load(std::memory_order_relaxed)) {
        samples->error = QStringLiteral("cancelled");
        return samples;
    }

    // Keep the cells present on either side, in dimension order.
    QStringList oneSided;
    std::vector<qint64> present;
    for (qint64 cell = 0; cell < cells && !spec.by.isEmpty(); ++cell) {
        const qint64 inBase = samples->base.cellRequests[size_t(cell)];
        const qint64 inCand = samples->cand.cellRequests[size_t(cell)];
        if (inBase == 0 && inCand == 0)
            continue;
        QStringList labels;
        for (size_t d = 0; d < unionLabels.size(); ++d)
            labels << unionLabels[d][(cell / baseInput.map.strides[d]) % unionLabels[d].size()];
        if (inBase == 0 || inCand == 0) {
            QStringList named;
            for (qsizetype d = 0; d < labels.size(); ++d)
                named << QStringLiteral("%1 = %2").arg(samples->dimensions[size_t(d)].key, labels[d]);
            oneSided << QStringLiteral("%1: %2 only (%3 requests)")
                            .arg(named.join(QStringLiteral(", ")),
                                 inBase == 0 ? QStringLiteral("candidate") : QStringLiteral("baseline"))
                            .arg(inBase + inCand);
        }
        samples->cellClasses.push_back(labels);
        present.push_back(cell);
    }
    for (SideSamples *side : {&samples->base, &samples->cand}) {
        std::vector<double> values;
        std::vector<qint64> offsets{0};
        std::vector<qint64> requests;
        for (const qint64 cell : present) {
            const auto run = side->cell(cell);
            values.insert(values.end(), run.begin(), run.end());
            offsets.push_back(qint64(values.size()));
            requests.push_back(side->cellRequests[size_t(cell)]);
        }
        side->cellValues = std::move(values);
        side->cellOffsets = std::move(offsets);
        side->cellRequests = std::move(requests);
    }

    std::vector<ClassMixCounts> mixes;
    for (size_t d = 0; d < unionLabels.size(); ++d)
        mixes.push_back(
            {samples->dimensions[d].key, unionLabels[d], baseInput.dimensionCounts[d], candInput.dimensionCounts[d]});
    samples->workload = WorkloadComparability::compare(samples->base.workload, samples->cand.workload, mixes, oneSided);

    if (samples->base.metric.empty() || samples->cand.metric.empty()) {
        const bool neither = samples->base.metric.empty() && samples->cand.metric.empty();
        QString what = metricLabel(spec.metric);
        if (spec.metric == Metric::Ttft)
            what += QStringLiteral(" at the %1 boundary").arg(boundaryKey(spec.boundary));
        const QStringList both = observedMetrics(base, cand, spec.boundary);
        samples->metricError = QStringLiteral("%1 is not observed in the %2 (%3)%4; both sides observe: %5")
                                   .arg(what,
                                        neither                            ? QStringLiteral("baseline or the candidate")
                                            : samples->base.metric.empty() ? QStringLiteral("baseline")
                                                                           : QStringLiteral("candidate"),
                                        neither ? base.store->format + QStringLiteral(", ") + cand.store->format
                                                : (samples->base.metric.empty() ? base : cand).store->format,
                                        spec.metric == Metric::Ttft && spec.boundary != Boundary::Client
                                            ? QStringLiteral(" (try --boundary client)")
                                            : QString(),
                                        both.isEmpty() ? QStringLiteral("no latency at all (workload traces?)")
                                                       : both.join(QStringLiteral(", ")));
    }
    return samples;
}
