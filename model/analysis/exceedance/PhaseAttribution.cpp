#include "PhaseAttribution.h"

#include "analysis/requests/PhaseAdvice.h"
#include "store/RequestTable.h"

#include <array>

namespace {

__extension__ typedef __int128 Int128;

struct GroupSums
{
    qint64 n = 0;
    Int128 total = 0;
    Int128 residual = 0;
    std::array<Int128, kPhaseCount> phases{};
    std::array<qint64, kPhaseCount> observed{};
};

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

double meanMs(Int128 sumNs, qint64 n) { return n > 0 ? double(sumNs) / double(n) / 1e6 : 0.0; }

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
    if (metric == Metric::E2e || metric == Metric::Itl || metric == phaseMetric(Phase::Stream))
        return Metric::E2e;
    return Metric::Ttft;
}

PhaseAttribution PhaseAttribution::compute(const RequestTable &table, std::span<const qint32> set,
                                           std::span<const qint32> rest, Metric total, Boundary boundary)
{
    PhaseAttribution result;
    result.total = total == Metric::E2e ? Metric::E2e : Metric::Ttft;
    result.boundary = result.total == Metric::E2e ? Boundary::Client : boundary;
    const Stamp begin = result.total == Metric::E2e ? Stamp::ClientSend : boundaryStart(result.boundary);
    const Stamp end = result.total == Metric::E2e ? Stamp::LastTokenClient : boundaryFirstToken(result.boundary);
    const std::span<const Phase> inside = result.total == Metric::E2e ? std::span<const Phase>(kAllPhases)
                                                                      : ttftPhases(result.boundary);

    const GroupSums inSet = sumGroup(table, set, begin, end, inside);
    const GroupSums inRest = sumGroup(table, rest, begin, end, inside);
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
