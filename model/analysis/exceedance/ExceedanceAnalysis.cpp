#include "ExceedanceAnalysis.h"

#include "analysis/stats/ColumnCache.h"
#include "analysis/requests/RequestSlice.h"
#include "store/RequestTable.h"

ExceedanceAnalysis ExceedanceAnalysis::compute(ColumnCache &cache, const RequestSlice &slice, const ExceedanceSpec &spec)
{
    ExceedanceAnalysis analysis;
    const RequestTable &table = cache.table();
    analysis.set = findExceedanceSet(table, *cache.metric(spec.metric, spec.boundary), slice, spec);
    std::vector<FeatureSeparation> separations;
    const auto groups = FeatureSamples::groupsOf(analysis.set, table.rowCount());
    for (const auto &feature : comparisonFeatures(table, spec.boundary)) {
        analysis.samples.push_back(FeatureSamples::gather(cache, feature, analysis.set, groups));
        separations.push_back(FeatureSeparation::of(table, analysis.samples.back()));
    }
    // The metric defining the set is left out of the ranking; for a phase
    // metric that phase would top it by construction.
    std::erase_if(separations, [&](const FeatureSeparation &separation) {
        return separation.feature.group != RequestFeature::Group::Attribute
            && separation.feature.group != RequestFeature::Group::Shape
            && separation.feature.metric == spec.metric;
    });
    analysis.comparison = SetComparison::rank(std::move(separations));
    analysis.attribution = PhaseAttribution::compute(table, analysis.set.members, analysis.set.rest,
                                                     PhaseAttribution::totalFor(spec.metric), spec.boundary);
    return analysis;
}

MemberComparison ExceedanceAnalysis::member(const RequestTable &table, qsizetype position) const
{
    if (position < 0 || position >= set.size())
        return {};
    MemberComparison result = MemberComparison::of(table, samples, set.members[size_t(position)]);
    result.position = position;
    return result;
}
