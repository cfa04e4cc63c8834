#include "PathReportJson.h"

#include "analysis/workflows/PathAttribution.h"
#include "analysis/workflows/PathTree.h"
#include "store/Utf8.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace PathReportJson {

namespace {

nlohmann::json number(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

using Utf8::utf8;

} // namespace

nlohmann::json attribution(const PathAttribution &a)
{
    nlohmann::json keys = nlohmann::json::array();
    for (const auto &key : a.keys) {
        keys.push_back({{"key", utf8(key.key)},
                        {"label", utf8(a.label(key))},
                        {"coordination_gap", key.gap},
                        {"past_parent_end", key.overrun},
                        {"idle", key.idle},
                        {"category", utf8(spanCategoryKey(key.category))},
                        {"set_sum_ns", key.setSumNs},
                        {"rest_sum_ns", key.restSumNs},
                        {"set_mean_ms", key.setMeanMs},
                        {"rest_mean_ms", key.restMeanMs},
                        {"difference_ms", key.differenceMs},
                        {"set_on_path", key.setOnPath},
                        {"rest_on_path", key.restOnPath},
                        {"set_share_on_path", key.setShareOnPath},
                        {"rest_share_on_path", key.restShareOnPath},
                        {"set_mean_when_on_path_ms", number(key.setMeanOnPathMs)},
                        {"rest_mean_when_on_path_ms", number(key.restMeanOnPathMs)},
                        {"set_off_path", key.setOffPath},
                        {"rest_off_path", key.restOffPath},
                        {"set_median_slack_off_path_ms", number(key.setSlackMedianMs)},
                        {"rest_median_slack_off_path_ms", number(key.restSlackMedianMs)}});
    }
    nlohmann::json result = {{"total", utf8(PathAttribution::targetLabel(a.target).toLower())},
                             {"by", utf8(spanKeyKindKey(a.keyKind))},
                             {"set", utf8(a.setName)},
                             {"rest", utf8(a.restName)},
                             {"set_n", a.setN},
                             {"rest_n", a.restN},
                             {"set_left_out", a.setSkipped},
                             {"rest_left_out", a.restSkipped},
                             {"set_mean_ms", number(a.setMeanMs)},
                             {"rest_mean_ms", number(a.restMeanMs)},
                             {"difference_ms", number(a.differenceMs)},
                             {"keys", keys},
                             {"outside_span_tree",
                              {{"set_mean_ms", a.outsideSetMeanMs},
                               {"rest_mean_ms", a.outsideRestMeanMs},
                               {"difference_ms", a.outsideDifferenceMs}}},
                             {"sum_of_contributions_ms", number(a.sumOfContributions())},
                             {"exact_in_ns", a.exact},
                             {"suspect", nullptr},
                             {"outside_carries_most", a.outsideCarriesMost},
                             {"next_test", utf8(a.nextTest)}};
    if (a.suspect)
        result["suspect"] = utf8(a.label(a.keys[*a.suspect]));
    return result;
}

nlohmann::json tree(const PathTree &tree)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (size_t i = 0; i < tree.nodes().size(); ++i) {
        const auto &node = tree.nodes()[i];
        nodes.push_back({{"path", utf8(tree.pathText(qint32(i)))},
                         {"key", utf8(node.key)},
                         {"depth", node.depth},
                         {"parent", node.parent},
                         {"category", utf8(spanCategoryKey(node.category))},
                         {"set_mean_ms", node.setMeanMs},
                         {"rest_mean_ms", node.restMeanMs},
                         {"difference_ms", node.setMeanMs - node.restMeanMs},
                         {"set_own_mean_ms", node.setSelfMeanMs},
                         {"rest_own_mean_ms", node.restSelfMeanMs},
                         {"set_on_path", node.setOnPath},
                         {"rest_on_path", node.restOnPath}});
    }
    return {{"total", utf8(PathAttribution::targetLabel(tree.target()).toLower())},
            {"by", utf8(spanKeyKindKey(tree.keyKind()))},
            {"set_n", tree.setN()},
            {"rest_n", tree.restN()},
            {"nodes", nodes}};
}

} // namespace PathReportJson
