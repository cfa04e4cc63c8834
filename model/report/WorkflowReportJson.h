#pragma once

#include <nlohmann/json_fwd.hpp>

#include <QString>

class WorkflowSchedule;
struct WhatIfOutcome;
struct PopulationWhatIfResult;

// Machine-readable workflow analyses. Times are ms (doubles) from the
// workflow's start plus exact integer ns where a script may add them up;
// undefined values and unbounded slack are null.
namespace WorkflowReportJson {

nlohmann::json criticalPath(const WorkflowSchedule &schedule, const QString &workflow);
nlohmann::json whatIf(const WorkflowSchedule &schedule, const WhatIfOutcome &outcome, const QString &workflow);
nlohmann::json population(const PopulationWhatIfResult &result);

} // namespace WorkflowReportJson
