#pragma once

#include "analysis/classes/ClassDimension.h"
#include "analysis/requests/Metric.h"
#include "analysis/workflows/SpanKey.h"
#include "store/Phase.h"

#include <QStringList>

#include <cmath>
#include <optional>

// What a comparison asks. The first group needs a pass over every request
// (ComparisonSamples::prepare); the second only reads the prepared samples
// (TraceComparison::evaluate), so changing the percentile, SLO, prediction,
// suspect or tolerance answers at once.
struct ComparisonSpec
{
    // Prepared ---------------------------------------------------------------
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client;
    QStringList by; // zero, one or two class dimension keys
    ClassBands bands;
    // Workflow traces: critical-path time of the two sides grouped by this
    // key (span kind, service, operation or normalised name).
    SpanKeyKind pathKey = SpanKeyKind::Kind;

    // Evaluated --------------------------------------------------------------
    double q = 0.95;
    double confidence = 0.95;
    // SLO threshold on the metric (ms); NaN: misses count above the
    // baseline's own percentile value instead. With TTFT it also sets the
    // goodput guardrail's TTFT objective.
    double sloMs = std::nan("");
    double sloItlMs = 80.0;                  // goodput's inter-token objective
    double predictedSavingMs = std::nan(""); // at the target percentile; NaN: none
    std::optional<Phase> suspect;            // none: the phase that carries the baseline's tail
    double tolerance = 0.05;                 // guardrails: 5% (relative for latencies, points for shares)

    bool samePreparation(const ComparisonSpec &other) const
    {
        return metric == other.metric && boundary == other.boundary && by == other.by && bands == other.bands
            && pathKey == other.pathKey;
    }
};
