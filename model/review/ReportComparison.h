#pragma once

#include "DesignReport.h"

#include <memory>

class TraceStore;

// The report's "did the change work" section: the candidate trace compared
// with the loaded one (the report's slice) at the record's target — metric,
// boundary, percentile and suspected phase — split by the report's classes.
// Sets options.comparison and options.candidate and the record's verdict
// (DesignReport::judge). One place for tracelane-cli report --candidate,
// a session's compared trace and File > Export Report with a trace compared.
namespace ReportComparison {

void attach(DiagnosisRecord &record, DesignReport::Options &options, std::shared_ptr<const TraceStore> baseline,
            std::shared_ptr<const TraceStore> candidate, const QString &candidateName);

} // namespace ReportComparison
