#pragma once

#include "Boundary.h"
#include "MetricSummary.h"

#include <QString>

#include <array>
#include <optional>

class RequestTable;

// Mean duration of one phase over the requests that observed it.
struct PhaseMean
{
    Phase phase = Phase::NetworkIn;
    qint64 n = 0;
    double meanMs = 0.0;
};

// The seed profiler's report, computed over a request table at one
// observation boundary, with sample sizes on every figure.
struct ProfileReport
{
    QString label;
    QString workload;
    Boundary boundary = Boundary::Client;
    qint64 requests = 0;
    qint64 rejected = 0;

    // Request shape: the joint distribution is kept in the store; these are
    // its marginals, as the seed prints them.
    double promptP50 = 0.0;
    double promptP95 = 0.0;
    double outputP50 = 0.0;
    double outputP95 = 0.0;

    MetricSummary ttft;
    MetricSummary itl;
    MetricSummary e2e;
    std::array<PhaseMean, kPhaseCount> phaseMeans{};
    // Mean TTFT time not covered by an observed phase (missing stamps).
    double ttftResidualMeanMs = 0.0;

    std::optional<Phase> dominantTtftPhase;
    std::optional<Phase> dominantE2ePhase;

    const PhaseMean &meanOf(Phase phase) const { return phaseMeans[static_cast<size_t>(phase)]; }
};

ProfileReport profileRequests(const RequestTable &table, Boundary boundary, const QString &label,
                              const QString &workload);

// The integer-ns sums behind the phase means and the TTFT residual (each
// phase over the requests that observed it; the residual, TTFT minus the
// observed phases inside it, over the requests with a TTFT): what
// profileRequests adds up, or what a database sums (model/clickhouse).
struct ProfileSums
{
    __extension__ typedef __int128 Int128;
    std::array<Int128, kPhaseCount> phaseNs{};
    std::array<qint64, kPhaseCount> phaseN{};
    Int128 residualNs = 0;
    qint64 residualN = 0;
};

// Sets the phase means, the residual and the dominant phases from `sums`
// (report->boundary must be set).
void setProfileSums(ProfileReport *report, const ProfileSums &sums);
