#pragma once

#include "ComparisonSide.h"
#include "analysis/classes/ClassFilter.h"

#include <QString>

#include <memory>
#include <utility>

// One trace split into a baseline and a candidate: by class values
// (before/after a flag that is recorded on each request) or at a time
// (before/after a deploy). Both sides are slices of the same store.
namespace ComparisonSplit {

// Requests whose client send lies before `splitNs` are the baseline, those at
// or after it the candidate; requests without a send time are on neither.
std::pair<ComparisonSide, ComparisonSide> atTime(const std::shared_ptr<const TraceStore> &store, qint64 splitNs,
                                                 const QString &file);

// Requests matching `baseline` and `candidate` (ClassFilter syntax); an
// unknown dimension or value is reported through `error`.
std::pair<ComparisonSide, ComparisonSide> byClasses(const std::shared_ptr<const TraceStore> &store,
                                                    const ClassFilter &baseline, const ClassFilter &candidate,
                                                    const ClassBands &bands, const QString &file, QString *error);

// How a split time reads in a side's label: "t = 63000.000 ms", or the UTC
// date-time when the clock is the Unix epoch.
QString timeText(qint64 ns);

// First and last client send of the store (kNoTime when none), so a split
// time can be given relative to the start and checked against the trace.
std::pair<qint64, qint64> sendRange(const TraceStore &store);

} // namespace ComparisonSplit
