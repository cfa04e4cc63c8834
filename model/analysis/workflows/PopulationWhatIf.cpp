#include "PopulationWhatIf.h"

#include "analysis/stats/Percentile.h"

#include <cmath>
#include <limits>

namespace {

double toMs(qint64 ns)
{
    return ns == kNoTime ? std::numeric_limits<double>::quiet_NaN() : double(ns) / 1e6;
}

} // namespace

const WhatIfOutcome &PopulationWhatIf::add(const WorkflowSchedule &schedule)
{
    m_last = WhatIf::run(schedule, m_edits);
    if (!m_last.ok()) {
        addFailure(schedule.graph().label(schedule.tree().roots().front()), m_last.error);
        return m_last;
    }
    if (!m_last.applied.isEmpty())
        ++m_changed;
    m_e2eBefore.push_back(toMs(m_last.before.e2e()));
    m_e2eAfter.push_back(toMs(m_last.after.e2e()));
    m_ttftBefore.push_back(toMs(m_last.before.ttft()));
    m_ttftAfter.push_back(toMs(m_last.after.ttft()));
    return m_last;
}

void PopulationWhatIf::addFailure(const QString &workflow, const QString &error)
{
    ++m_failed;
    if (m_errors.size() < 10)
        m_errors.append(QStringLiteral("%1: %2").arg(workflow, error));
}

PopulationWhatIfResult PopulationWhatIf::result(double q) const
{
    PopulationWhatIfResult result;
    result.q = q;
    result.workflows = qint64(m_e2eBefore.size());
    result.changed = m_changed;
    result.failed = m_failed;
    result.errors = m_errors;
    result.e2eBeforeMs = Percentile::of(m_e2eBefore, q);
    result.e2eAfterMs = Percentile::of(m_e2eAfter, q);
    result.ttftBeforeMs = Percentile::of(m_ttftBefore, q);
    result.ttftAfterMs = Percentile::of(m_ttftAfter, q);
    return result;
}
