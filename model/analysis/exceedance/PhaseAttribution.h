#pragma once

#include "analysis/requests/Metric.h"

#include <QString>

#include <array>
#include <utility>

#include <limits>
#include <optional>
#include <span>
#include <vector>

class RequestTable;

// One phase's share of the set's excess: its mean in the set minus its mean
// in the rest, each mean taken over all requests of the group (a request
// that did not observe the phase contributes 0 and its time counts as
// residual), so the contributions add up exactly.
struct PhaseContribution
{
    Phase phase = Phase::Queue;
    double setMeanMs = 0.0;
    double restMeanMs = 0.0;
    double differenceMs = 0.0;
    qint64 setObserved = 0; // requests of the set that observed the phase
    qint64 restObserved = 0;
};

// The mean total (TTFT at a boundary, or E2E) of the exceedance set minus
// that of the rest, split into per-phase mean differences plus a residual
// for time no observed phase covers:
//     differenceMs == sum(phases[i].differenceMs) + residualDifferenceMs.
// Sums run in integer nanoseconds, so the identity holds to rounding of the
// final divisions (far below 1e-9 ms).
// Integer-ns sums over one group of requests (the set or the rest) within
// the total's window: requests with the total defined, their total, each
// phase's time and how many observed it, and the time no phase covers.
// A database can form the same sums (sumIf, countIf) and hand them over.
struct GroupPhaseSums
{
    __extension__ typedef __int128 Int128;
    qint64 n = 0;
    Int128 total = 0;
    Int128 residual = 0;
    std::array<Int128, kPhaseCount> phases{};
    std::array<qint64, kPhaseCount> observed{};
};

struct PhaseAttribution
{
    Metric total = Metric::Ttft; // Ttft or E2e
    Boundary boundary = Boundary::Client;
    qint64 setN = 0; // requests with the total defined
    qint64 restN = 0;
    double setMeanMs = std::numeric_limits<double>::quiet_NaN();
    double restMeanMs = std::numeric_limits<double>::quiet_NaN();
    double differenceMs = std::numeric_limits<double>::quiet_NaN();
    std::vector<PhaseContribution> phases; // the phases inside the total, in order
    double residualSetMeanMs = 0.0;
    double residualRestMeanMs = 0.0;
    double residualDifferenceMs = 0.0;

    // The phase with the largest positive contribution; empty when no phase
    // adds to the excess or the residual is larger than every phase.
    std::optional<Phase> suspected;
    bool residualCarriesMost = false;
    QString nextTest; // the experiment for the suspect

    double sumOfContributions() const;

    static PhaseAttribution compute(const RequestTable &table, std::span<const qint32> set,
                                    std::span<const qint32> rest, Metric total, Boundary boundary);
    // The same from sums already taken.
    static PhaseAttribution fromSums(const GroupPhaseSums &set, const GroupPhaseSums &rest, Metric total,
                                     Boundary boundary);
    // The stamps bounding `total` (Ttft or E2e) and the phases inside it.
    static std::pair<Stamp, Stamp> window(Metric total, Boundary boundary);
    static std::span<const Phase> phasesInside(Metric total, Boundary boundary);

    // The total an exceedance set on `metric` is attributed on: E2E for E2E,
    // ITL and the stream phase, TTFT for the rest.
    static Metric totalFor(Metric metric);

    // Why phase percentiles are not added up (shown beside the attribution).
    static QString percentileNote();
};
