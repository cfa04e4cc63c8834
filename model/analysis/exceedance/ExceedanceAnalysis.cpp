#include "ExceedanceAnalysis.h"

#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace {

// Below this the features take less time than starting a thread.
constexpr qsizetype kParallelRows = 50'000;

} // namespace

ExceedanceAnalysis ExceedanceAnalysis::compute(ColumnCache &cache, const RequestSlice &slice,
                                               const ExceedanceSpec &spec)
{
    ExceedanceAnalysis analysis;
    const RequestTable &table = cache.table();
    analysis.set = findExceedanceSet(table, *cache.metric(spec.metric, spec.boundary), slice, spec);
    const auto groups = FeatureSamples::groupsOf(analysis.set, table.rowCount());
    const auto features = comparisonFeatures(table, spec.boundary);
    analysis.samples.resize(features.size());
    std::vector<FeatureSeparation> separations(features.size());
    // Each feature sorts its own column (a dozen at a million rows): they are
    // independent, so they share the cores; results stay in feature order.
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    const auto work = [&] {
        try {
            for (size_t i = next++; i < features.size() && !failed.load(); i = next++) {
                analysis.samples[i] = FeatureSamples::gather(cache, features[i], analysis.set, groups);
                separations[i] = FeatureSeparation::of(table, analysis.samples[i]);
            }
        } catch (...) { // out of memory: rethrown on the calling thread
            if (!failed.exchange(true))
                failure = std::current_exception();
        }
    };
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t helpers = table.rowCount() < kParallelRows
        ? 0
        : std::min(features.size(), cores) - std::min<size_t>(features.size(), 1);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < helpers; ++t)
        threads.emplace_back(work);
    work();
    for (auto &thread : threads)
        thread.join();
    if (failure)
        std::rethrow_exception(failure);
    // The metric defining the set is left out of the ranking; for a phase
    // metric that phase would top it by construction.
    std::erase_if(separations, [&](const FeatureSeparation &separation) {
        return separation.feature.group != RequestFeature::Group::Attribute
            && separation.feature.group != RequestFeature::Group::Shape && separation.feature.metric == spec.metric;
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
