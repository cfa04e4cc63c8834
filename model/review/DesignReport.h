#pragma once

#include "DiagnosisRecord.h"
#include "analysis/classes/ClassDimension.h"
#include "analysis/workflows/WhatIfEdit.h"
#include "report/ReportDocument.h"

#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

class TraceStore;
struct TraceComparison;

// The one-page design-review report: the diagnosis record first, then the
// figures that back it — the class table and CDFs, the phase attribution
// of the exceedance set, the slowest members' timelines, the critical path
// and what-ifs of a workflow, and, when a candidate trace was compared, the
// comparison with the stop rule's verdict. Every figure's caption names its
// coordinates (boundary, metric, percentile, n, slice, trace).
namespace DesignReport {

struct Options
{
    QString trace;               // file name(s) the report names
    QString slice;               // "all requests" or the slice's label
    std::vector<qint32> rows;    // requests in scope; empty = every request
    QStringList classDimensions; // at most two keys; empty: the first categorical attribute
    ClassBands bands;
    int members = 5;                                   // slowest exceedance members drawn
    qint32 workflow = -1;                              // workflow of the critical path; -1: the slowest
    std::vector<WhatIfEdit> whatIfs;                   // applied together; empty: each critical span 25% faster
    std::shared_ptr<const TraceComparison> comparison; // baseline = this trace, when compared
    QString candidate;                                 // the candidate trace's name
    QString date;                                      // when the report was written (shown as is)
};

// `record` as measured on this trace (RecordDraft::measure). Polls
// `cancelled` between sections; a cancelled build returns what it has.
ReportDocument build(const DiagnosisRecord &record, const std::shared_ptr<const TraceStore> &store,
                     const Options &options, const std::atomic<bool> *cancelled = nullptr);

// Sets the record's verdict from a comparison's stop rule.
void judge(DiagnosisRecord &record, const TraceComparison &comparison, const QString &candidate);

} // namespace DesignReport
