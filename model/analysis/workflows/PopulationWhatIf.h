#pragma once

#include "WhatIf.h"

#include <QStringList>

#include <vector>

// A what-if applied to every workflow of a population, judged where it
// matters: at the target percentile of the workflows' totals (each
// workflow re-scheduled first, then the percentile taken of the new
// totals; never a sum of per-span percentiles).
struct PopulationWhatIfResult
{
    double q = 0.95;
    qint64 workflows = 0; // re-scheduled (changed or not)
    qint64 changed = 0;   // where at least one edit applied
    qint64 failed = 0;    // could not be scheduled (errors below)
    double e2eBeforeMs = 0.0;
    double e2eAfterMs = 0.0;
    double ttftBeforeMs = 0.0; // NaN when no workflow has a first token
    double ttftAfterMs = 0.0;
    QStringList errors; // the first few, with their workflow

    double e2eSavingMs() const { return e2eBeforeMs - e2eAfterMs; }
    double ttftSavingMs() const { return ttftBeforeMs - ttftAfterMs; }
};

class PopulationWhatIf
{
public:
    explicit PopulationWhatIf(std::vector<WhatIfEdit> edits)
        : m_edits(std::move(edits))
    { }

    // Re-schedules one workflow and keeps its before/after figures.
    const WhatIfOutcome &add(const WorkflowSchedule &schedule);
    void addFailure(const QString &workflow, const QString &error);

    PopulationWhatIfResult result(double q) const;
    const std::vector<WhatIfEdit> &edits() const { return m_edits; }

private:
    std::vector<WhatIfEdit> m_edits;
    WhatIfOutcome m_last;
    std::vector<double> m_e2eBefore;
    std::vector<double> m_e2eAfter;
    std::vector<double> m_ttftBefore;
    std::vector<double> m_ttftAfter;
    qint64 m_changed = 0;
    qint64 m_failed = 0;
    QStringList m_errors;
};
