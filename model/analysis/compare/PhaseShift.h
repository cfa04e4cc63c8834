#pragma once

#include "analysis/requests/Metric.h"

#include <QString>

#include <array>
#include <limits>
#include <optional>
#include <vector>

class RequestSlice;
class RequestTable;

// Per-side sums of a total (TTFT at a boundary, or E2E) and of the phases
// inside it, over the side's requests with the total defined. A phase a
// request did not observe contributes 0 and its time stays residual, so the
// parts always add up to the total. Sums are exact (128-bit integer ns);
// squares (for the phases' mean intervals) are in double ms.
struct PhaseSums
{
    __extension__ typedef __int128 Int128;

    qint64 n = 0;
    Int128 total = 0;
    Int128 residual = 0;
    std::array<Int128, kPhaseCount> phases{};
    std::array<qint64, kPhaseCount> observed{};
    std::array<double, kPhaseCount> squaresMs{}; // sum of (phase ms)^2, for the variance

    static PhaseSums of(const RequestTable &table, const RequestSlice &rows, Metric total, Boundary boundary);
};

// One phase on both sides: means (never percentiles) carry the exact split.
struct PhaseShiftRow
{
    static constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

    Phase phase = Phase::Queue;
    double baselineMeanMs = 0.0;
    double candidateMeanMs = 0.0;
    qint64 changeNs = 0;         // candidate - baseline mean, apportioned in whole ns
    double changeLowerMs = kNan; // 95% Welch interval of the mean change
    double changeUpperMs = kNan;
    qint64 baselineObserved = 0;
    qint64 candidateObserved = 0;
    // The target percentile of the phase on each side, side by side and
    // never added: a sum of phase percentiles is a time no request had.
    double baselinePercentileMs = kNan;
    double candidatePercentileMs = kNan;

    double changeMs() const { return double(changeNs) / 1e6; }
    // The mean fell beyond its interval.
    bool movedDown() const { return changeUpperMs < 0.0; }
};

// The mean change of the total split over the phases inside it plus the
// residual (time no observed phase covers). The split is exact in whole
// nanoseconds: the total change is the exact rational difference of the two
// means rounded to 1 ns, and the parts are apportioned by largest remainder,
// so  totalChangeNs == sum(phases[i].changeNs) + residualChangeNs  always.
struct PhaseShift
{
    Metric total = Metric::Ttft; // Ttft or E2e
    Boundary boundary = Boundary::Client;
    qint64 baselineN = 0;
    qint64 candidateN = 0;
    double baselineMeanMs = std::numeric_limits<double>::quiet_NaN();
    double candidateMeanMs = std::numeric_limits<double>::quiet_NaN();
    qint64 totalChangeNs = 0;
    std::vector<PhaseShiftRow> phases; // the phases inside the total, in order
    double residualBaselineMeanMs = 0.0;
    double residualCandidateMeanMs = 0.0;
    qint64 residualChangeNs = 0;
    std::optional<Phase> movedMost; // largest |mean change|; none when nothing moved

    bool isEmpty() const { return baselineN == 0 || candidateN == 0; }
    const PhaseShiftRow *row(Phase phase) const;

    // Percentiles are filled in by the caller (they need sorted phase samples).
    static PhaseShift compute(const PhaseSums &baseline, const PhaseSums &candidate, Metric total, Boundary boundary);

    // The suspected phase a diagnosis of `rows` alone would name: the one
    // PhaseAttribution blames for the requests above the q-percentile of
    // `metric`; none when the residual carries more or nothing stands out.
    static std::optional<Phase> tailSuspect(const RequestTable &table, const RequestSlice &rows, Metric metric,
                                            Boundary boundary, double q);
};
