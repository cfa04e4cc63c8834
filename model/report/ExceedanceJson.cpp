#include "ExceedanceJson.h"

#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "store/RequestTable.h"
#include "store/Utf8.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ExceedanceJson {

namespace {

nlohmann::json number(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

using Utf8::utf8;

nlohmann::json separation(const FeatureSeparation &separation)
{
    nlohmann::json result = {{"feature", utf8(separation.feature.key)},
                             {"unit", utf8(separation.feature.unit)},
                             {"separation", separation.separation},
                             {"method", utf8(separation.method())}};
    if (!separation.feature.numeric) {
        nlohmann::json shares = nlohmann::json::array();
        for (const auto &share : separation.shares) {
            shares.push_back({{"value", utf8(share.value)},
                              {"set_count", share.setCount},
                              {"rest_count", share.restCount},
                              {"set_share", share.setShare},
                              {"rest_share", share.restShare}});
        }
        result["separating_value"] = utf8(separation.separatingValue);
        result["shares"] = shares;
        return result;
    }
    result["set_n"] = separation.setN;
    result["rest_n"] = separation.restN;
    result["set_median"] = number(separation.setMedian);
    result["rest_median"] = number(separation.restMedian);
    result["ks_at"] = number(separation.ksAt);
    result["bins"] = {{"edges", separation.distributions.edges},
                      {"set_shares", separation.distributions.setShares},
                      {"rest_shares", separation.distributions.restShares}};
    return result;
}

} // namespace

nlohmann::json attribution(const PhaseAttribution &attribution)
{
    nlohmann::json phases = nlohmann::json::array();
    for (const auto &phase : attribution.phases) {
        phases.push_back({{"phase", utf8(phaseKey(phase.phase))},
                          {"set_mean_ms", phase.setMeanMs},
                          {"rest_mean_ms", phase.restMeanMs},
                          {"difference_ms", phase.differenceMs},
                          {"set_observed", phase.setObserved},
                          {"rest_observed", phase.restObserved}});
    }
    nlohmann::json result = {{"total", utf8(metricKey(attribution.total))},
                             {"boundary", utf8(boundaryKey(attribution.boundary))},
                             {"set_n", attribution.setN},
                             {"rest_n", attribution.restN},
                             {"set_mean_ms", number(attribution.setMeanMs)},
                             {"rest_mean_ms", number(attribution.restMeanMs)},
                             {"difference_ms", number(attribution.differenceMs)},
                             {"phases", phases},
                             {"residual",
                              {{"set_mean_ms", attribution.residualSetMeanMs},
                               {"rest_mean_ms", attribution.residualRestMeanMs},
                               {"difference_ms", attribution.residualDifferenceMs}}},
                             {"sum_of_contributions_ms", number(attribution.sumOfContributions())},
                             {"suspected_phase", nullptr},
                             {"residual_carries_most", attribution.residualCarriesMost},
                             {"next_test", utf8(attribution.nextTest)},
                             {"note", utf8(PhaseAttribution::percentileNote())}};
    if (attribution.suspected)
        result["suspected_phase"] = utf8(phaseKey(*attribution.suspected));
    return result;
}

nlohmann::json rankings(const SetComparison &comparison)
{
    nlohmann::json attributes = nlohmann::json::array();
    for (const auto &entry : comparison.attributes)
        attributes.push_back(separation(entry));
    nlohmann::json phases = nlohmann::json::array();
    for (const auto &entry : comparison.phases)
        phases.push_back(separation(entry));
    return {{"attribute_ranking", attributes}, {"phase_ranking", phases}};
}

nlohmann::json member(const MemberComparison &member)
{
    nlohmann::json features = nlohmann::json::array();
    for (const auto &row : member.rows) {
        nlohmann::json entry = {{"feature", utf8(row.feature.key)},
                                {"unit", utf8(row.feature.unit)},
                                {"text", utf8(row.text)},
                                {"rest_n", row.restN}};
        if (row.feature.numeric) {
            entry["value"] = number(row.value);
            entry["rest_median"] = number(row.restMedian);
            entry["percentile_rank"] = number(row.percentileRank);
        } else {
            entry["rest_share_same_value"] = number(row.restShareSameValue);
        }
        features.push_back(entry);
    }
    return {{"position", member.position + 1},
            {"request_id", utf8(member.requestId)},
            {"row", member.row},
            {"features", features}};
}

nlohmann::json analysis(const ExceedanceAnalysis &analysis, const RequestTable &table, const QString &slice,
                        int listedMembers, qsizetype position)
{
    const auto &set = analysis.set;
    nlohmann::json members = nlohmann::json::array();
    for (qsizetype i = 0; i < std::min<qsizetype>(listedMembers, set.size()); ++i) {
        const qint32 row = set.members[size_t(i)];
        members.push_back({{"request_id", utf8(table.idText(row))},
                           {"row", row},
                           {"value", number(metricValueMs(table, row, set.spec.metric, set.spec.boundary))}});
    }
    const nlohmann::json ranked = rankings(analysis.comparison);
    nlohmann::json result = {{"metric", utf8(metricKey(set.spec.metric))},
                             {"unit", utf8(metricUnit(set.spec.metric))},
                             {"boundary", utf8(boundaryKey(set.boundary))},
                             {"percentile", set.spec.q},
                             {"slice", utf8(slice)},
                             {"slice_requests", set.sliceRequests},
                             {"observed_requests", set.observedRequests},
                             {"threshold", number(set.threshold)},
                             {"set_size", set.size()},
                             {"rest_size", set.rest.size()},
                             {"order", utf8(ExceedanceSet::orderKey(set.spec.order))},
                             {"members", members},
                             {"attribution", attribution(analysis.attribution)},
                             {"attribute_ranking", ranked["attribute_ranking"]},
                             {"phase_ranking", ranked["phase_ranking"]},
                             {"member", nullptr}};
    if (position >= 0 && position < set.size())
        result["member"] = member(analysis.member(table, position));
    return result;
}

} // namespace ExceedanceJson
