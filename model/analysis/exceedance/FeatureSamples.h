#pragma once

#include "RequestFeature.h"

#include <vector>

class ColumnCache;
struct ExceedanceSet;

// One feature's values in the exceedance set and in the rest: sorted values
// for a numeric feature, counts per attribute code (0 = no value) for a
// categorical one. What comparisons and rankings are computed from.
struct FeatureSamples
{
    RequestFeature feature;
    std::vector<double> set; // numeric: ascending, NaN left out
    std::vector<double> rest;
    std::vector<qint64> setCounts; // categorical: by attribute code
    std::vector<qint64> restCounts;
    qint64 setTotal = 0; // categorical: set members counted
    qint64 restTotal = 0;

    // Per row: 1 for a member of the set, 2 for the rest, 0 for neither.
    static std::vector<quint8> groupsOf(const ExceedanceSet &set, qsizetype rows);

    // `groups` from groupsOf(set, ...), shared by every feature of one set.
    static FeatureSamples gather(ColumnCache &cache, const RequestFeature &feature, const ExceedanceSet &set,
                                 const std::vector<quint8> &groups);
};
