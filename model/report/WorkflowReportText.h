#pragma once

#include <QString>

class WorkflowSchedule;
struct WhatIfOutcome;
struct PopulationWhatIfResult;

// Plain-text renderings of the workflow analyses for tracelane-cli. Times
// are ms from the workflow's start, two decimals; TTFT is the client's view
// (workflow start to the first content-bearing token).
namespace WorkflowReportText {

// Timing, the critical path with each section's share of the total, and
// the slack of the spans off the path (at most `slackLines` of them).
QString criticalPath(const WorkflowSchedule &schedule, const QString &workflow, int slackLines = 20);

// Before/after figures, savings and the new critical path.
QString whatIf(const WorkflowSchedule &schedule, const WhatIfOutcome &outcome, const QString &workflow);

QString population(const PopulationWhatIfResult &result);

} // namespace WorkflowReportText
