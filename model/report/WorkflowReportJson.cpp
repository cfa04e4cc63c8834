#include "WorkflowReportJson.h"

#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/WhatIf.h"
#include "analysis/workflows/WorkflowSchedule.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

nlohmann::json ms(qint64 ns)
{
    return ns == kNoTime ? nlohmann::json() : nlohmann::json(double(ns) / 1e6);
}

nlohmann::json ms(double value)
{
    return std::isnan(value) ? nlohmann::json() : nlohmann::json(value);
}

nlohmann::json timing(const WorkflowTiming &timing)
{
    return {{"e2e_ms", ms(timing.e2e())},
            {"e2e_ns", timing.e2e()},
            {"ttft_ms", ms(timing.ttft())},
            {"ttft_ns", timing.ttft() == kNoTime ? nlohmann::json() : nlohmann::json(timing.ttft())}};
}

nlohmann::json spanRef(const SpanGraph &graph, qint32 span)
{
    if (span == PathSection::kNoSpan)
        return {{"span", nullptr}, {"span_id", nullptr}, {"name", "(idle between root spans)"}};
    return {{"span", span},
            {"span_id", std::string(graph.id(span))},
            {"name", graph.label(span).toStdString()},
            {"operation", graph.operation(span).toStdString()}};
}

nlohmann::json path(const SpanGraph &graph, const std::vector<PathSection> &sections, const WorkflowTiming &timing)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto &section : sections) {
        nlohmann::json entry = spanRef(graph, section.span);
        entry["start_ms"] = ms(section.start - timing.start);
        entry["end_ms"] = ms(section.end - timing.start);
        entry["duration_ms"] = ms(section.duration());
        entry["duration_ns"] = section.duration();
        entry["share"] = timing.e2e() > 0 ? double(section.duration()) / double(timing.e2e()) : 0.0;
        out.push_back(std::move(entry));
    }
    return out;
}

nlohmann::json slack(const SpanGraph &graph, const std::vector<qint64> &values,
                     const std::vector<PathSection> &sections)
{
    const auto onPath = spansOnPath(sections, graph.spanCount());
    nlohmann::json out = nlohmann::json::array();
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        nlohmann::json entry = spanRef(graph, span);
        const qint64 value = values[size_t(span)];
        entry["slack_ms"] = value == ScheduleGraph::kUnbounded ? nlohmann::json() : ms(value);
        entry["on_path"] = onPath[size_t(span)] != 0;
        out.push_back(std::move(entry));
    }
    return out;
}

nlohmann::json strings(const QStringList &list)
{
    nlohmann::json out = nlohmann::json::array();
    for (const QString &text : list)
        out.push_back(text.toStdString());
    return out;
}

} // namespace

namespace WorkflowReportJson {

nlohmann::json criticalPath(const WorkflowSchedule &schedule, const QString &workflow)
{
    const WorkflowTiming baseline = schedule.timing();
    const auto sections = schedule.criticalPath();
    nlohmann::json out = timing(baseline);
    out["workflow"] = workflow.toStdString();
    out["spans"] = schedule.graph().spanCount();
    out["critical_path"] = path(schedule.graph(), sections, baseline);
    out["slack"] = slack(schedule.graph(), schedule.slack(), sections);
    out["notices"] = strings(schedule.notices());
    return out;
}

nlohmann::json whatIf(const WorkflowSchedule &schedule, const WhatIfOutcome &outcome, const QString &workflow)
{
    return {{"workflow", workflow.toStdString()},
            {"applied", strings(outcome.applied)},
            {"not_applied", strings(outcome.unmatched)},
            {"before", timing(outcome.before)},
            {"after", timing(outcome.after)},
            {"e2e_saving_ms", ms(outcome.e2eSaving())},
            {"e2e_saving_ns", outcome.e2eSaving()},
            {"ttft_saving_ms", ms(outcome.ttftSaving())},
            {"critical_path_after", path(schedule.graph(), outcome.pathAfter, outcome.after)},
            {"slack_after", slack(schedule.graph(), outcome.slackAfter, outcome.pathAfter)}};
}

nlohmann::json population(const PopulationWhatIfResult &result)
{
    return {{"q", result.q},
            {"workflows", result.workflows},
            {"changed", result.changed},
            {"failed", result.failed},
            {"e2e_before_ms", ms(result.e2eBeforeMs)},
            {"e2e_after_ms", ms(result.e2eAfterMs)},
            {"e2e_saving_ms", ms(result.e2eSavingMs())},
            {"ttft_before_ms", ms(result.ttftBeforeMs)},
            {"ttft_after_ms", ms(result.ttftAfterMs)},
            {"ttft_saving_ms", ms(result.ttftSavingMs())},
            {"errors", strings(result.errors)}};
}

} // namespace WorkflowReportJson
