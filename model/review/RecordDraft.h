#pragma once

#include "DiagnosisRecord.h"

#include <span>

class TraceStore;

// Fills a diagnosis record from a loaded trace: what the trace can say by
// itself (objective checks, arrival process and request shape, configuration,
// trace boundaries, the suspect from the phase attribution of the exceedance
// set or from the critical path) and sensible defaults for the rest
// (the seed's example objectives, the suspect's next test, a stop rule).
namespace RecordDraft {

struct Scope
{
    std::span<const qint32> rows; // requests in scope; every row when empty
    QString trace;                // file name(s) the record names
    QString slice;                // "all requests" or the slice's label
};

// A new record for the trace, measured at `boundary`, `metric` and q.
DiagnosisRecord draft(const TraceStore &store, const Scope &scope, Boundary boundary, Metric metric, double q);

// Re-measures `record` on a trace: replaces the checks and every measured
// part, keeps whatever a person wrote (notes, typed manifest entries, a
// suspect a person named, an experiment and a stop rule).
void measure(DiagnosisRecord &record, const TraceStore &store, const Scope &scope);

// The suspect as the trace shows it: for flat requests, the phase that
// carries most of the mean excess of the requests above the q-percentile of
// `metric` over the rest (PhaseAttribution); for span traces, the span and
// phase holding most of the slowest workflow's critical path.
SuspectedPhase suspect(const TraceStore &store, std::span<const qint32> rows, Boundary boundary, Metric metric,
                       double q);

// The symptom and the experiment for a suspect.
Experiment experimentFor(const SuspectedPhase &suspect, const Coordinates &coordinates);

// The seed's example objectives: p95 client TTFT < 1,200 ms, p95 ITL < 80 ms.
std::vector<Objective> defaultObjectives();
QStringList defaultGuardrails();

} // namespace RecordDraft
