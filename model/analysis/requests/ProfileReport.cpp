#include "ProfileReport.h"

#include "analysis/stats/Percentile.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>

namespace {

__extension__ typedef __int128 Int128;

// Largest mean among `phases` that were observed; the first wins a tie, as
// in the seed profiler.
std::optional<Phase> dominantAmong(const ProfileReport &report, std::span<const Phase> phases)
{
    std::optional<Phase> best;
    for (const Phase phase : phases) {
        const auto &mean = report.meanOf(phase);
        if (mean.n == 0)
            continue;
        if (!best || mean.meanMs > report.meanOf(*best).meanMs)
            best = phase;
    }
    return best;
}

} // namespace

ProfileReport profileRequests(const RequestTable &table, Boundary boundary, const QString &label,
                              const QString &workload)
{
    ProfileReport report;
    report.label = label;
    report.workload = workload;
    report.boundary = boundary;
    report.requests = table.rowCount();
    const auto rows = static_cast<size_t>(table.rowCount());

    std::vector<double> prompt(rows);
    std::vector<double> output(rows);
    for (size_t row = 0; row < rows; ++row) {
        prompt[row] = table.promptTokens(qsizetype(row));
        output[row] = table.outputTokens(qsizetype(row));
    }
    static constexpr double shapeQuantiles[] = {0.50, 0.95};
    const auto promptQuantiles = Percentile::selectMany(prompt, shapeQuantiles);
    const auto outputQuantiles = Percentile::selectMany(output, shapeQuantiles);
    report.promptP50 = promptQuantiles[0];
    report.promptP95 = promptQuantiles[1];
    report.outputP50 = outputQuantiles[0];
    report.outputP95 = outputQuantiles[1];

    const auto ttft = metricColumnMs(table, Metric::Ttft, boundary);
    report.ttft = summariseMetric(ttft, Metric::Ttft, boundary);
    report.itl = summariseMetric(metricColumnMs(table, Metric::Itl, boundary), Metric::Itl, boundary);
    report.e2e = summariseMetric(metricColumnMs(table, Metric::E2e, boundary), Metric::E2e, boundary);

    // Phase sums and the TTFT residual in integer ns, so means do not drift
    // with the order of rows (and a database's integer sums give the same).
    ProfileSums sums;
    const auto inside = ttftPhases(boundary);
    const Stamp ttftBegin = boundaryStart(boundary);
    const Stamp ttftEnd = boundaryFirstToken(boundary);
    for (size_t row = 0; row < rows; ++row) {
        qint64 covered = 0;
        for (const Phase phase : kAllPhases) {
            const qint64 ns = table.phaseNs(qsizetype(row), phase);
            if (ns == kNoTime)
                continue;
            sums.phaseNs[size_t(phase)] += ns;
            ++sums.phaseN[size_t(phase)];
            if (std::find(inside.begin(), inside.end(), phase) != inside.end())
                covered += ns;
        }
        if (!std::isnan(ttft[row])) {
            sums.residualNs
                += Int128(table.stamp(qsizetype(row), ttftEnd)) - table.stamp(qsizetype(row), ttftBegin) - covered;
            ++sums.residualN;
        }
    }
    setProfileSums(&report, sums);
    return report;
}

void setProfileSums(ProfileReport *report, const ProfileSums &sums)
{
    for (const Phase phase : kAllPhases) {
        auto &mean = report->phaseMeans[size_t(phase)];
        mean.phase = phase;
        mean.n = sums.phaseN[size_t(phase)];
        mean.meanMs = mean.n > 0 ? double(sums.phaseNs[size_t(phase)]) / double(mean.n) / 1e6 : std::nan("");
    }
    report->ttftResidualMeanMs = sums.residualN > 0 ? double(sums.residualNs) / double(sums.residualN) / 1e6 : 0.0;
    const auto inside = ttftPhases(report->boundary);
    report->dominantTtftPhase = dominantAmong(*report, inside);
    report->dominantE2ePhase = dominantAmong(*report, kAllPhases);
}
