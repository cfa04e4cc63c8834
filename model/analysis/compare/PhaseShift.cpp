#include "PhaseShift.h"

#include "PercentileDifference.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/Percentile.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

using Int128 = PhaseSums::Int128;

std::span<const Phase> phasesInside(Metric total, Boundary boundary)
{
    return total == Metric::E2e ? std::span<const Phase>(kAllPhases) : ttftPhases(boundary);
}

// floor(a / b) for b > 0, rounding toward minus infinity.
Int128 floorDiv(Int128 a, Int128 b)
{
    const Int128 quotient = a / b;
    return (a % b != 0 && a < 0) ? quotient - 1 : quotient;
}

double meanMs(Int128 sumNs, qint64 n)
{
    return n > 0 ? double(sumNs) / double(n) / 1e6 : 0.0;
}

} // namespace

PhaseSums PhaseSums::of(const RequestTable &table, const RequestSlice &rows, Metric total, Boundary boundary)
{
    PhaseSums sums;
    const Stamp begin = total == Metric::E2e ? Stamp::ClientSend : boundaryStart(boundary);
    const Stamp end = total == Metric::E2e ? Stamp::LastTokenClient : boundaryFirstToken(boundary);
    const auto inside = phasesInside(total, boundary);
    const auto &from = table.stampColumn(begin);
    const auto &to = table.stampColumn(end);
    const quint8 *mask = rows.mask().data();
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!mask[row] || from[size_t(row)] == kNoTime || to[size_t(row)] == kNoTime)
            continue;
        ++sums.n;
        const qint64 span = to[size_t(row)] - from[size_t(row)];
        qint64 covered = 0;
        for (const Phase phase : inside) {
            const qint64 ns = table.phaseNs(row, phase);
            if (ns == kNoTime)
                continue;
            sums.phases[size_t(phase)] += ns;
            ++sums.observed[size_t(phase)];
            const double ms = double(ns) / 1e6;
            sums.squaresMs[size_t(phase)] += ms * ms;
            covered += ns;
        }
        sums.total += span;
        sums.residual += span - covered;
    }
    return sums;
}

const PhaseShiftRow *PhaseShift::row(Phase phase) const
{
    for (const auto &entry : phases) {
        if (entry.phase == phase)
            return &entry;
    }
    return nullptr;
}

PhaseShift PhaseShift::compute(const PhaseSums &baseline, const PhaseSums &candidate, Metric total, Boundary boundary)
{
    PhaseShift shift;
    shift.total = total == Metric::E2e ? Metric::E2e : Metric::Ttft;
    shift.boundary = shift.total == Metric::E2e ? Boundary::Client : boundary;
    shift.baselineN = baseline.n;
    shift.candidateN = candidate.n;
    if (shift.isEmpty())
        return shift;
    const auto inside = phasesInside(shift.total, shift.boundary);
    const Int128 nb = baseline.n;
    const Int128 nc = candidate.n;
    const Int128 denominator = nb * nc;

    // Each part's exact change is numerator / denominator (in ns); the parts'
    // numerators add up to the total's because residual = total - covered.
    std::vector<Int128> numerators;
    for (const Phase phase : inside)
        numerators.push_back(candidate.phases[size_t(phase)] * nb - baseline.phases[size_t(phase)] * nc);
    numerators.push_back(candidate.residual * nb - baseline.residual * nc);
    const Int128 totalNumerator = candidate.total * nb - baseline.total * nc;

    // The total rounded half up to whole ns, then largest-remainder apportionment.
    const Int128 rounded = floorDiv(2 * totalNumerator + denominator, 2 * denominator);
    std::vector<Int128> parts(numerators.size());
    std::vector<Int128> remainders(numerators.size());
    Int128 assigned = 0;
    for (size_t i = 0; i < numerators.size(); ++i) {
        parts[i] = floorDiv(numerators[i], denominator);
        remainders[i] = numerators[i] - parts[i] * denominator;
        assigned += parts[i];
    }
    std::vector<size_t> order(numerators.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return remainders[a] > remainders[b]; });
    for (Int128 left = rounded - assigned, k = 0; left > 0; --left, ++k)
        ++parts[order[size_t(k % Int128(order.size()))]];

    shift.baselineMeanMs = meanMs(baseline.total, baseline.n);
    shift.candidateMeanMs = meanMs(candidate.total, candidate.n);
    shift.totalChangeNs = qint64(rounded);
    const double z = normalQuantileTwoSided(0.95);
    for (size_t i = 0; i < inside.size(); ++i) {
        const Phase phase = inside[i];
        PhaseShiftRow row;
        row.phase = phase;
        row.baselineMeanMs = meanMs(baseline.phases[size_t(phase)], baseline.n);
        row.candidateMeanMs = meanMs(candidate.phases[size_t(phase)], candidate.n);
        row.changeNs = qint64(parts[i]);
        row.baselineObserved = baseline.observed[size_t(phase)];
        row.candidateObserved = candidate.observed[size_t(phase)];
        // Welch: variance of each mean from the per-request values (0 where unobserved).
        const auto varianceOfMean = [phase](const PhaseSums &sums, double mean) {
            if (sums.n < 2)
                return std::numeric_limits<double>::quiet_NaN();
            const double n = double(sums.n);
            const double variance = std::max(0.0, (sums.squaresMs[size_t(phase)] - n * mean * mean) / (n - 1.0));
            return variance / n;
        };
        const double spread
            = std::sqrt(varianceOfMean(baseline, row.baselineMeanMs) + varianceOfMean(candidate, row.candidateMeanMs));
        const double change = row.candidateMeanMs - row.baselineMeanMs;
        row.changeLowerMs = change - z * spread;
        row.changeUpperMs = change + z * spread;
        shift.phases.push_back(row);
    }
    shift.residualBaselineMeanMs = meanMs(baseline.residual, baseline.n);
    shift.residualCandidateMeanMs = meanMs(candidate.residual, candidate.n);
    shift.residualChangeNs = qint64(parts.back());

    const PhaseShiftRow *most = nullptr;
    for (const auto &row : shift.phases) {
        if (row.changeNs != 0 && (!most || std::llabs(row.changeNs) > std::llabs(most->changeNs)))
            most = &row;
    }
    if (most)
        shift.movedMost = most->phase;
    return shift;
}

std::optional<Phase> PhaseShift::tailSuspect(const RequestTable &table, const RequestSlice &rows, Metric metric,
                                             Boundary boundary, double q)
{
    if (isPhaseMetric(metric))
        return metricPhase(metric);
    std::vector<double> values(size_t(table.rowCount()), std::numeric_limits<double>::quiet_NaN());
    std::vector<double> defined;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!rows.contains(row))
            continue;
        values[size_t(row)] = metricValueMs(table, row, metric, boundary);
        if (!std::isnan(values[size_t(row)]))
            defined.push_back(values[size_t(row)]);
    }
    if (defined.empty())
        return std::nullopt;
    const double threshold = Percentile::selectMany(defined, std::array<double, 1>{q}).front();
    std::vector<qint32> set;
    std::vector<qint32> rest;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        const double value = values[size_t(row)];
        if (std::isnan(value))
            continue;
        (value > threshold ? set : rest).push_back(qint32(row));
    }
    return PhaseAttribution::compute(table, set, rest, PhaseAttribution::totalFor(metric), boundary).suspected;
}
