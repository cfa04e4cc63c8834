#include "PhaseAttribution.h"

#include "analysis/requests/PhaseAdvice.h"
#include "store/RequestTable.h"

#include <array>

namespace {

using Int128 = GroupPhaseSums::Int128;
using GroupSums = GroupPhaseSums;

GroupSums sumGroup(const RequestTable &table, std::span<const qint32> rows, Stamp begin, Stamp end,
                   std::span<const Phase> phases)
{
    GroupSums sums;
    for (const qint32 row : rows) {
        const qint64 from = table.stamp(row, begin);
        const qint64 to = table.stamp(row, end);
        if (from == kNoTime || to == kNoTime)
            continue;
        ++sums.n;
        const qint64 total = to - from;
        qint64 covered = 0;
        for (const Phase phase : phases) {
            const qint64 ns = table.phaseNs(row, phase);
            if (ns == kNoTime)
                continue;
            sums.phases[size_t(phase)] += ns;
            ++sums.observed[size_t(phase)];
            covered += ns;
        }
        sums.total += total;
        sums.residual += total - covered;
    }
    return sums;
}

double meanMs(Int128 sumNs, qint64 n)
{
    return n > 0 ? double(sumNs) / double(n) / 1e6 : 0.0;
}

} // namespace

double PhaseAttribution::sumOfContributions() const
{
    double sum = residualDifferenceMs;
    for (const auto &phase : phases)
        sum += phase.differenceMs;
    return sum;
}

Metric PhaseAttribution::totalFor(Metric metric)
{
    if (metric == Metric::E2e || metric == Metric::Itl || metric == phaseMetric(Phase::Stream)
        || isStreamMetric(metric))
        return Metric::E2e;
    return Metric::Ttft;
}

std::pair<Stamp, Stamp> PhaseAttribution::window(Metric total, Boundary boundary)
{
    if (total == Metric::E2e)
        return {Stamp::ClientSend, Stamp::LastTokenClient};
    return {boundaryStart(boundary), boundaryFirstToken(boundary)};
}

std::span<const Phase> PhaseAttribution::phasesInside(Metric total, Boundary boundary)
{
    return total == Metric::E2e ? std::span<const Phase>(kAllPhases) : ttftPhases(boundary);
}

PhaseAttribution PhaseAttribution::compute(const RequestTable &table, std::span<const qint32> set,
                                           std::span<const qint32> rest, Metric total, Boundary boundary)
{
    const Metric which = total == Metric::E2e ? Metric::E2e : Metric::Ttft;
    const Boundary where = which == Metric::E2e ? Boundary::Client : boundary;
    const auto [begin, end] = window(which, where);
    const auto inside = phasesInside(which, where);
    return fromSums(sumGroup(table, set, begin, end, inside), sumGroup(table, rest, begin, end, inside), total,
                    boundary);
}

PhaseAttribution PhaseAttribution::fromSums(const GroupPhaseSums &inSet, const GroupPhaseSums &inRest, Metric total,
                                            Boundary boundary)
{
    PhaseAttribution result;
    result.total = total == Metric::E2e ? Metric::E2e : Metric::Ttft;
    result.boundary = result.total == Metric::E2e ? Boundary::Client : boundary;
    const std::span<const Phase> inside = phasesInside(result.total, result.boundary);
    result.setN = inSet.n;
    result.restN = inRest.n;
    if (inSet.n == 0 || inRest.n == 0)
        return result;
    result.setMeanMs = meanMs(inSet.total, inSet.n);
    result.restMeanMs = meanMs(inRest.total, inRest.n);
    result.differenceMs = result.setMeanMs - result.restMeanMs;
    for (const Phase phase : inside) {
        PhaseContribution contribution;
        contribution.phase = phase;
        contribution.setMeanMs = meanMs(inSet.phases[size_t(phase)], inSet.n);
        contribution.restMeanMs = meanMs(inRest.phases[size_t(phase)], inRest.n);
        contribution.differenceMs = contribution.setMeanMs - contribution.restMeanMs;
        contribution.setObserved = inSet.observed[size_t(phase)];
        contribution.restObserved = inRest.observed[size_t(phase)];
        result.phases.push_back(contribution);
    }
    result.residualSetMeanMs = meanMs(inSet.residual, inSet.n);
    result.residualRestMeanMs = meanMs(inRest.residual, inRest.n);
    result.residualDifferenceMs = result.residualSetMeanMs - result.residualRestMeanMs;

    const PhaseContribution *largest = nullptr;
    for (const auto &contribution : result.phases) {
        if (contribution.differenceMs > 0.0 && (!largest || contribution.differenceMs > largest->differenceMs))
            largest = &contribution;
    }
    if (largest && largest->differenceMs >= result.residualDifferenceMs) {
        result.suspected = largest->phase;
        result.nextTest = nextTestFor(largest->phase);
    } else if (result.residualDifferenceMs > 0.0) {
        result.residualCarriesMost = true;
        result.nextTest = QStringLiteral("the excess lies in time no phase covers: record the missing "
                                         "timestamps on these requests before blaming a phase");
    }
    return result;
}

QString PhaseAttribution::percentileNote()
{
    return QStringLiteral("Means add, percentiles do not: the phase differences above sum to the total "
                          "difference, but adding phase p95s gives a time no request experienced. Compare "
                          "percentiles of each request's total instead.");
}
