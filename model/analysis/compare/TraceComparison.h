#pragma once

#include "ComparisonSpec.h"
#include "ComparisonStopRule.h"
#include "CriticalPathShares.h"
#include "PercentileDifference.h"
#include "PhaseShift.h"
#include "PredictionCheck.h"
#include "WorkloadComparability.h"
#include "analysis/workflows/PathAttribution.h"

#include <QString>
#include <QStringList>

#include <limits>
#include <optional>
#include <vector>

class ComparisonSamples;

// One class (or the overall population) on both sides at the target percentile.
struct ComparisonCell
{
    QStringList classes; // one label per dimension; empty for the overall row
    qint64 baselineRequests = 0;
    qint64 candidateRequests = 0;
    PercentileDifference difference;
    // Misses: requests strictly above the threshold on each side; the
    // threshold is the SLO when one is given, else this row's own baseline
    // percentile (so about 1 - q of the baseline misses by construction).
    double missThresholdMs = std::numeric_limits<double>::quiet_NaN();
    qint64 baselineMisses = 0;
    qint64 candidateMisses = 0;

    QString label() const; // "eu-west · interactive", or "overall"
    bool oneSided() const { return baselineRequests == 0 || candidateRequests == 0; }
    double baselineMissShare() const;
    double candidateMissShare() const;
};

// Workflows compare as workflows: E2E and TTFT at the target percentile and
// where each side's critical paths spend their time.
struct WorkflowComparison
{
    PercentileDifference e2e;
    PercentileDifference ttft;
    CriticalPathShares baseline;
    CriticalPathShares candidate;
    // The candidate's mean E2E (or TTFT) minus the baseline's, split exactly
    // over critical-path time by spec.pathKey (set = candidate, rest =
    // baseline), with the suspect key and its next test.
    std::optional<PathAttribution> paths;
};

// The answer to "did the change move the target percentile?": per class
// and overall, the percentile on each side, its change with a 95% interval
// and a verdict; misses; the phase shift; the workload check; the stop rule;
// the prediction beside the observation. Every number carries the spec's
// coordinates (metric, boundary, percentile).
struct TraceComparison
{
    ComparisonSpec spec;
    Boundary observedBoundary = Boundary::Client;
    QString baselineLabel;
    QString candidateLabel;
    std::vector<ClassDimension> dimensions;
    ComparisonCell overall;
    std::vector<ComparisonCell> cells;
    bool missesAgainstSlo = false;
    PhaseShift phaseShift;
    WorkloadComparability workload;
    ComparisonStopRule stopRule;
    std::optional<PredictionCheck> prediction;
    std::optional<WorkflowComparison> workflows;
    QStringList notes;
    QString error; // nothing to compare (a side empty, formats that cannot meet, ...)

    bool ok() const { return error.isEmpty(); }

    // O(classes) after ComparisonSamples::prepare, plus one pass over the
    // baseline for the suspected phase when none is given.
    static TraceComparison evaluate(const ComparisonSamples &samples, const ComparisonSpec &spec);
};
