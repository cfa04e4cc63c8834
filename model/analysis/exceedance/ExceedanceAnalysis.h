#pragma once

#include "ExceedanceSet.h"
#include "FeatureSamples.h"
#include "MemberComparison.h"
#include "PhaseAttribution.h"
#include "SetComparison.h"

#include <vector>

class ColumnCache;
class RequestSlice;

// Everything the exceedance panel and `tracelane-cli exceed` show for one
// (metric, boundary, percentile, slice): the set, how it differs from the
// rest feature by feature, and which phase carries its excess. Keeps each
// feature's samples so stepping through members costs a binary search.
struct ExceedanceAnalysis
{
    ExceedanceSet set;
    SetComparison comparison;
    PhaseAttribution attribution;
    std::vector<FeatureSamples> samples; // comparisonFeatures() order

    static ExceedanceAnalysis compute(ColumnCache &cache, const RequestSlice &slice, const ExceedanceSpec &spec);

    // The member at `position` of the set's order compared with the rest.
    MemberComparison member(const RequestTable &table, qsizetype position) const;
};
