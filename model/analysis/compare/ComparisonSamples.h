#pragma once

#include "ComparisonSide.h"
#include "ComparisonSpec.h"
#include "CriticalPathShares.h"
#include "PhaseShift.h"
#include "WorkloadComparability.h"
#include "analysis/load/ServiceLoad.h"
#include "analysis/stats/Distribution.h"
#include "analysis/workflows/PathAttribution.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <vector>

// One side's numbers, sorted once so every later question (another
// percentile, SLO, prediction, suspect phase) is answered without touching
// the requests again.
struct SideSamples
{
    qint64 requests = 0;                                 // requests on the side
    std::vector<double> metric;                          // the metric of every side request with it defined, ascending
    std::vector<double> cellValues;                      // the same values grouped by class cell, each run ascending
    std::vector<qint64> cellOffsets;                     // cells + 1 offsets into cellValues
    std::vector<qint64> cellRequests;                    // requests per cell (metric defined or not)
    std::array<std::vector<double>, kPhaseCount> phases; // each phase's values (ms), ascending
    std::vector<double> itl;                             // guardrails, ascending
    std::vector<double> e2e;
    std::vector<double> ttft; // workflows only: TTFT at the boundary, ascending
    PhaseSums sums;           // of the total the metric belongs to
    WorkloadProfile workload;
    Goodput goodput;      // at the prepared SLO
    qint64 rejected = -1; // -1: not attributable
    // The phase carrying the baseline's tail at the prepared percentile
    // (baseline side only; see TraceComparison::evaluate).
    std::optional<Phase> tailSuspect;
    std::optional<CriticalPathShares> criticalPath; // workflow traces only
    // Workflow traces: the side's critical-path time by spec.pathKey, at the
    // total the metric belongs to (E2E, or the path to the first token).
    std::optional<PathGroup> pathGroup;

    std::span<const double> cell(qsizetype index) const
    {
        return {cellValues.data() + cellOffsets[size_t(index)],
                size_t(cellOffsets[size_t(index) + 1] - cellOffsets[size_t(index)])};
    }
};

// Everything a before/after comparison needs from the two sides, computed
// in one pass per side (both sides in parallel) for a metric, a boundary and
// class dimensions. Immutable once prepared; TraceComparison::evaluate reads
// it for any percentile in O(classes).
class ComparisonSamples
{
public:
    ComparisonSide baseline;
    ComparisonSide candidate;
    ComparisonSpec spec; // as prepared (metric, boundary, by, bands, SLO)
    Boundary observedBoundary = Boundary::Client;
    std::vector<ClassDimension> dimensions; // resolved from spec.by
    std::vector<QStringList> cellClasses;   // labels of each cell present on either side
    SideSamples base;
    SideSamples cand;
    WorkloadComparability workload;
    bool workflows = false; // both sides are agent workflows
    QStringList notes;      // things worth saying (formats differ, overlap, ...)
    // Set when the two sides cannot be compared at all (a side is empty,
    // workflows against requests, a dimension one side lacks).
    QString error;
    // Set when the metric or boundary is not observed on a side: the
    // workload check still stands, the percentile comparison does not.
    QString metricError;

    qsizetype cellCount() const { return qsizetype(cellClasses.size()); }
    // Sorted metric values of a cell (-1: overall) on one side.
    std::span<const double> sorted(qsizetype cell, bool candidateSide) const;
    // Empirical CDF for plots: the exact steps up to `points`, else `points` + 1 percentiles.
    std::vector<CdfPoint> cdf(qsizetype cell, bool candidateSide, qsizetype points = 400) const;

    static std::shared_ptr<const ComparisonSamples> prepare(ComparisonSide baseline, ComparisonSide candidate,
                                                            const ComparisonSpec &spec,
                                                            const std::atomic<bool> *cancelled = nullptr);
};
