#include "ComparisonJson.h"

#include "PathReportJson.h"
#include "ReportFormat.h"
#include "analysis/compare/TraceComparison.h"
#include "store/Utf8.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ComparisonJson {

namespace {

using Json = nlohmann::json;

Json number(double value)
{
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

using Utf8::utf8;

Json strings(const QStringList &list)
{
    Json array = Json::array();
    for (const QString &text : list)
        array.push_back(utf8(text));
    return array;
}

Json estimate(const QuantileEstimate &estimate)
{
    Json result = {{"n", estimate.interval.n}, {"value", number(estimate.value)}};
    if (estimate.tooFew()) {
        result["status"] = "too_few_requests";
        result["n_needed"] = QuantileInterval::minimumSampleSize(
            estimate.q, estimate.interval.confidence > 0 ? estimate.interval.confidence : 0.95);
        return result;
    }
    result["status"] = "ok";
    result["ci_low"] = number(estimate.lower);
    result["ci_high"] = number(estimate.upper);
    result["ci_ranks"] = {estimate.interval.lowerRank, estimate.interval.upperRank};
    result["ci_coverage"] = estimate.interval.coverage;
    return result;
}

Json difference(const PercentileDifference &d)
{
    return {{"q", d.q},
            {"confidence", d.confidence},
            {"baseline", estimate(d.baseline)},
            {"candidate", estimate(d.candidate)},
            {"difference_ms", number(d.differenceMs)},
            {"difference_percent", number(d.differencePercent)},
            {"ci_low_ms", number(d.lowerMs)},
            {"ci_high_ms", number(d.upperMs)},
            {"detectable_ms", number(d.detectableMs)},
            {"verdict", utf8(PercentileDifference::verdictKey(d.verdict))}};
}

Json cell(const ComparisonCell &cell)
{
    return {{"classes", strings(cell.classes)},
            {"label", utf8(cell.label())},
            {"baseline_requests", cell.baselineRequests},
            {"candidate_requests", cell.candidateRequests},
            {"one_sided", cell.oneSided()},
            {"difference", difference(cell.difference)},
            {"miss_threshold_ms", number(cell.missThresholdMs)},
            {"baseline_misses", cell.baselineMisses},
            {"candidate_misses", cell.candidateMisses},
            {"baseline_miss_share", number(cell.baselineMissShare())},
            {"candidate_miss_share", number(cell.candidateMissShare())}};
}

Json phaseShift(const PhaseShift &shift)
{
    Json phases = Json::array();
    for (const auto &row : shift.phases) {
        phases.push_back({{"phase", utf8(phaseKey(row.phase))},
                          {"baseline_mean_ms", row.baselineMeanMs},
                          {"candidate_mean_ms", row.candidateMeanMs},
                          {"change_ns", row.changeNs},
                          {"change_ci_low_ms", number(row.changeLowerMs)},
                          {"change_ci_high_ms", number(row.changeUpperMs)},
                          {"baseline_observed", row.baselineObserved},
                          {"candidate_observed", row.candidateObserved},
                          {"baseline_percentile_ms", number(row.baselinePercentileMs)},
                          {"candidate_percentile_ms", number(row.candidatePercentileMs)}});
    }
    return {{"total", utf8(metricKey(shift.total))},
            {"boundary", utf8(boundaryKey(shift.boundary))},
            {"baseline_n", shift.baselineN},
            {"candidate_n", shift.candidateN},
            {"baseline_mean_ms", number(shift.baselineMeanMs)},
            {"candidate_mean_ms", number(shift.candidateMeanMs)},
            {"total_change_ns", shift.totalChangeNs},
            {"phases", phases},
            {"residual_baseline_mean_ms", shift.residualBaselineMeanMs},
            {"residual_candidate_mean_ms", shift.residualCandidateMeanMs},
            {"residual_change_ns", shift.residualChangeNs},
            {"moved_most", shift.movedMost ? Json(utf8(phaseKey(*shift.movedMost))) : Json(nullptr)},
            {"note", "means add up exactly (integer ns); percentiles of phases are never added"}};
}

Json workload(const WorkloadComparability &workload)
{
    Json checks = Json::array();
    for (const auto &check : workload.checks) {
        checks.push_back({{"key", utf8(check.key)},
                          {"label", utf8(check.label)},
                          {"baseline", number(check.baseline)},
                          {"candidate", number(check.candidate)},
                          {"baseline_text", utf8(check.baselineText)},
                          {"candidate_text", utf8(check.candidateText)},
                          {"measure", number(check.measure)},
                          {"threshold", number(check.threshold)},
                          {"judged", check.judged},
                          {"differs", check.differs},
                          {"note", utf8(check.note)}});
    }
    return {{"checks", checks},
            {"one_sided_classes", strings(workload.oneSided)},
            {"mix_changed", workload.mixChanged},
            {"warnings", strings(workload.warnings())}};
}

Json stopRule(const ComparisonStopRule &rule)
{
    Json guardrails = Json::array();
    for (const auto &guardrail : rule.guardrails) {
        guardrails.push_back({{"key", utf8(guardrail.key)},
                              {"label", utf8(guardrail.label)},
                              {"unit", utf8(guardrail.unit)},
                              {"baseline", number(guardrail.baseline)},
                              {"candidate", number(guardrail.candidate)},
                              {"judged", guardrail.judged},
                              {"regressed", guardrail.regressed},
                              {"note", utf8(guardrail.note)}});
    }
    return {{"outcome", utf8(ComparisonStopRule::outcomeKey(rule.outcome))},
            {"tolerance", rule.tolerance},
            {"target", utf8(ComparisonStopRule::checkKey(rule.target))},
            {"suspected_phase", rule.suspect ? Json(utf8(phaseKey(*rule.suspect))) : Json(nullptr)},
            {"suspected_phase_source", utf8(rule.suspectSource)},
            {"phase", utf8(ComparisonStopRule::checkKey(rule.phase))},
            {"guardrails_check", utf8(ComparisonStopRule::checkKey(rule.guardrailsCheck))},
            {"guardrails", guardrails},
            {"reasons", strings(rule.reasons)}};
}

Json shares(const CriticalPathShares &shares)
{
    Json parts = Json::object();
    for (int part = 0; part < CriticalPathShares::kParts; ++part) {
        parts[utf8(CriticalPathShares::partKey(part))]
            = {{"ms", shares.ms[size_t(part)]}, {"share", shares.share(part)}};
    }
    return {{"workflows", shares.workflows},
            {"analysed", shares.analysed},
            {"failed", shares.failed},
            {"path_ms", shares.pathMs},
            {"by_kind", parts}};
}

} // namespace

nlohmann::json report(const TraceComparison &comparison)
{
    const auto &spec = comparison.spec;
    Json dimensions = Json::array();
    for (const auto &dimension : comparison.dimensions)
        dimensions.push_back(utf8(dimension.key));
    Json result = {{"coordinates",
                    {{"metric", utf8(metricKey(spec.metric))},
                     {"unit", utf8(metricUnit(spec.metric))},
                     {"boundary", utf8(boundaryKey(comparison.observedBoundary))},
                     {"percentile", spec.q},
                     {"percentile_label", utf8(ReportFormat::percentileLabel(spec.q))},
                     {"confidence", spec.confidence},
                     {"slo_ms", number(spec.sloMs)}}},
                   {"baseline", utf8(comparison.baselineLabel)},
                   {"candidate", utf8(comparison.candidateLabel)},
                   {"dimensions", dimensions},
                   {"notes", strings(comparison.notes)},
                   {"workload", workload(comparison.workload)}};
    if (!comparison.ok()) {
        result["error"] = utf8(comparison.error);
        return result;
    }
    result["interval_method"] = "each side's distribution-free order-statistic interval gives its standard error, "
                                "(X(u) - X(l)) / (2 z); the difference's 95% interval is the difference -/+ "
                                "1.96 sqrt(se_b^2 + se_c^2)";
    result["overall"] = cell(comparison.overall);
    Json cells = Json::array();
    for (const auto &entry : comparison.cells)
        cells.push_back(cell(entry));
    result["classes"] = cells;
    result["misses_against"] = comparison.missesAgainstSlo ? "slo" : "baseline_percentile";
    result["phase_shift"] = phaseShift(comparison.phaseShift);
    result["stop_rule"] = stopRule(comparison.stopRule);
    if (comparison.prediction) {
        const auto &prediction = *comparison.prediction;
        result["prediction"] = {{"predicted_saving_ms", number(prediction.predictedMs)},
                                {"observed_saving_ms", number(prediction.observedMs)},
                                {"observed_ci_low_ms", number(prediction.observedLowerMs)},
                                {"observed_ci_high_ms", number(prediction.observedUpperMs)},
                                {"realised_share", number(prediction.realisedShare)},
                                {"agreement", utf8(PredictionCheck::agreementKey(prediction.agreement))},
                                {"sentence", utf8(prediction.sentence())}};
    }
    if (comparison.workflows) {
        result["workflows"] = {{"e2e", difference(comparison.workflows->e2e)},
                               {"ttft", difference(comparison.workflows->ttft)},
                               {"baseline_critical_path", shares(comparison.workflows->baseline)},
                               {"candidate_critical_path", shares(comparison.workflows->candidate)}};
        if (comparison.workflows->paths)
            result["workflows"]["critical_path_attribution"]
                = PathReportJson::attribution(*comparison.workflows->paths);
    }
    return result;
}

} // namespace ComparisonJson
