#pragma once

#include "analysis/requests/Boundary.h"
#include "analysis/requests/Metric.h"
#include "store/RowSet.h"

#include <QString>

// The exceedance set as the views need to see it: which requests are in the
// tail, and the coordinates that define the tail. Computed in the model by
// whoever owns the exceedance analysis; the view-state only carries it.
struct ExceedanceMarks
{
    Metric metric = Metric::Ttft;
    Boundary boundary = Boundary::Client;
    double thresholdMs = 0.0;
    QString label; // e.g. "TTFT > p95 (659.5 ms), client boundary"
    RowSet members;

    bool isEmpty() const { return members.isEmpty(); }
    friend bool operator==(const ExceedanceMarks &, const ExceedanceMarks &) = default;
};
