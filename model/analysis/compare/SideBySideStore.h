#pragma once

#include "ComparisonSide.h"

#include <QString>

#include <atomic>
#include <memory>

// Both sides of a comparison as one trace, for drawing them together: the
// requests of the baseline, then those of the candidate, each row keeping
// its stamps, tokens and class attributes, plus the attribute
// `comparison side` ("baseline" / "candidate") a swimlane can group by. Lanes
// aligned at each request's send then put both sides on one time axis.
namespace SideBySideStore {

inline QString sideAttribute()
{
    return QStringLiteral("comparison side");
}
inline QString baselineLabel()
{
    return QStringLiteral("baseline");
}
inline QString candidateLabel()
{
    return QStringLiteral("candidate");
}

// Null when cancelled.
std::shared_ptr<TraceStore> merge(const ComparisonSide &baseline, const ComparisonSide &candidate,
                                  const std::atomic<bool> *cancelled = nullptr);

} // namespace SideBySideStore
