#include "ReportJson.h"

#include "analysis/requests/PhaseAdvice.h"
#include "analysis/requests/ProfileReport.h"
#include "store/TraceStore.h"
#include "store/Utf8.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ReportJson {

namespace {

nlohmann::json number(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

using Utf8::utf8;

nlohmann::json dominant(const ProfileReport &report, const std::optional<Phase> &phase, Boundary boundary)
{
    if (!phase)
        return {{"phase", nullptr}, {"boundary", utf8(boundaryKey(boundary))}};
    const auto &mean = report.meanOf(*phase);
    return {{"phase", utf8(phaseKey(*phase))},
            {"mean_ms", number(mean.meanMs)},
            {"n", mean.n},
            {"boundary", utf8(boundaryKey(boundary))},
            {"next_test", utf8(nextTestFor(*phase))}};
}

} // namespace

nlohmann::json metricSummary(const MetricSummary &summary)
{
    return {{"metric", utf8(metricKey(summary.metric))},
            {"unit", utf8(metricUnit(summary.metric))},
            {"boundary", utf8(boundaryKey(summary.boundary))},
            {"n", summary.n},
            {"mean", number(summary.mean)},
            {"min", number(summary.min)},
            {"max", number(summary.max)},
            {"p50", number(summary.p50)},
            {"p90", number(summary.p90)},
            {"p95", number(summary.p95)},
            {"p99", number(summary.p99)}};
}

nlohmann::json profile(const ProfileReport &report)
{
    nlohmann::json phases = nlohmann::json::object();
    for (const auto &mean : report.phaseMeans)
        phases[utf8(phaseKey(mean.phase))] = {{"mean_ms", number(mean.meanMs)}, {"n", mean.n}};
    return {{"label", utf8(report.label)},
            {"workload", utf8(report.workload)},
            {"boundary", utf8(boundaryKey(report.boundary))},
            {"boundary_span", utf8(boundarySpan(report.boundary))},
            {"requests", report.requests},
            {"rejected", report.rejected},
            {"shape",
             {{"prompt_p50", number(report.promptP50)},
              {"prompt_p95", number(report.promptP95)},
              {"output_p50", number(report.outputP50)},
              {"output_p95", number(report.outputP95)}}},
            {"p50_ttft_ms", number(report.ttft.p50)},
            {"p95_ttft_ms", number(report.ttft.p95)},
            {"p95_itl_ms", number(report.itl.p95)},
            {"p95_e2e_ms", number(report.e2e.p95)},
            {"ttft", metricSummary(report.ttft)},
            {"itl", metricSummary(report.itl)},
            {"e2e", metricSummary(report.e2e)},
            {"phase_means_ms", phases},
            {"ttft_residual_mean_ms", number(report.ttftResidualMeanMs)},
            {"dominant_ttft_phase", dominant(report, report.dominantTtftPhase, report.boundary)},
            {"dominant_e2e_phase", dominant(report, report.dominantE2ePhase, Boundary::Client)}};
}

nlohmann::json rejected(std::span<const RejectedRecord> records)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto &record : records) {
        list.push_back({{"file", utf8(record.file)},
                        {"line", record.line},
                        {"request_id", utf8(record.requestId)},
                        {"field", utf8(record.field)},
                        {"reason", utf8(record.reason)}});
    }
    return list;
}

nlohmann::json notices(std::span<const LoadNotice> notices)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto &notice : notices)
        list.push_back({{"file", utf8(notice.file)}, {"line", notice.line}, {"message", utf8(notice.message)}});
    return list;
}

} // namespace ReportJson
