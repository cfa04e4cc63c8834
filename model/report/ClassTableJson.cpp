#include "ClassTableJson.h"

#include "ReportFormat.h"
#include "analysis/classes/ClassTable.h"
#include "store/Utf8.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ClassTableJson {

namespace {

nlohmann::json number(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

using Utf8::utf8;

nlohmann::json quantile(const QuantileEstimate &estimate)
{
    if (estimate.tooFew()) {
        return {{"status", "too_few_requests"},
                {"value", nullptr},
                {"n_needed", QuantileInterval::minimumSampleSize(estimate.q)}};
    }
    return {{"status", "ok"},
            {"value", number(estimate.value)},
            {"ci_low", number(estimate.lower)},
            {"ci_high", number(estimate.upper)},
            {"ci_ranks", {estimate.interval.lowerRank, estimate.interval.upperRank}},
            {"ci_coverage", estimate.interval.coverage}};
}

nlohmann::json cell(const ClassCell &cell)
{
    nlohmann::json classes = nlohmann::json::array();
    for (const QString &label : cell.classes)
        classes.push_back(utf8(label));
    nlohmann::json result = {{"classes", classes},
                             {"label", utf8(cell.label())},
                             {"requests", cell.requests},
                             {"n", cell.n},
                             {"request_share", cell.requestShare},
                             {"exceedance_count", cell.exceedanceCount},
                             {"exceedance_share", cell.exceedanceShare},
                             {"mean", number(cell.meanMs)},
                             {"small", cell.small}};
    for (const auto &estimate : cell.quantiles)
        result[utf8(ReportFormat::percentileLabel(estimate.q))] = quantile(estimate);
    return result;
}

} // namespace

nlohmann::json table(const ClassTable &table, const QString &slice)
{
    nlohmann::json dimensions = nlohmann::json::array();
    for (const auto &dimension : table.dimensions)
        dimensions.push_back({{"key", utf8(dimension.key)}, {"label", utf8(dimension.label)}});
    nlohmann::json cells = nlohmann::json::array();
    for (const auto &entry : table.cells)
        cells.push_back(cell(entry));
    nlohmann::json result = {{"metric", utf8(metricKey(table.metric))},
                             {"unit", utf8(metricUnit(table.metric))},
                             {"boundary", utf8(boundaryKey(table.boundary))},
                             {"slice", utf8(slice)},
                             {"slice_requests", table.sliceRequests},
                             {"dimensions", dimensions},
                             {"confidence", 0.95},
                             {"interval_method", "equal-tailed binomial order statistics"},
                             {"exceedance",
                              {{"percentile", table.exceedanceQ},
                               {"threshold", number(table.exceedanceThreshold)},
                               {"size", table.exceedanceSize}}},
                             {"cells", cells},
                             {"overall", cell(table.overall)},
                             {"mixture", nullptr}};
    if (!table.error.isEmpty())
        result["error"] = utf8(table.error);
    if (table.mixture) {
        const auto &mixture = *table.mixture;
        result["mixture"] = {{"class", utf8(mixture.classLabel)},
                             {"exceedance_count", mixture.exceedanceCount},
                             {"exceedance_share", mixture.exceedanceShare},
                             {"request_share", mixture.requestShare},
                             {"lift", mixture.lift()},
                             {"text", utf8(mixture.text(table))}};
    }
    return result;
}

} // namespace ClassTableJson
