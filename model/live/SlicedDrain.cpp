#include "SlicedDrain.h"

#include "LiveQueue.h"

#include <QElapsedTimer>

#include <algorithm>

SlicedDrain::SlicedDrain(LiveQueue &queue)
    : SlicedDrain(queue, Limits{})
{ }

SlicedDrain::SlicedDrain(LiveQueue &queue, Limits limits)
    : m_queue(queue)
    , m_limits(limits)
{ }

bool SlicedDrain::step(const Store &store)
{
    QElapsedTimer clock;
    clock.start();
    bool stored = false;
    // At least one slice per step, so a step always makes progress even when
    // one slice alone takes longer than the budget.
    while (!stored || clock.nsecsElapsed() < m_limits.stepBudgetNs) {
        std::vector<ExportBatch> slice = m_queue.take(m_limits.sliceSpans);
        if (slice.empty())
            break;
        stored = true;
        qint64 spans = 0;
        for (ExportBatch &batch : slice) {
            spans += qint64(batch.spans.size());
            store(batch);
        }
        m_batches += qint64(slice.size());
        m_spans += spans;
        m_longestSliceSpans = std::max(m_longestSliceSpans, spans);
    }
    if (stored) {
        ++m_steps;
        m_longestStepNs = std::max(m_longestStepNs, qint64(clock.nsecsElapsed()));
    }
    return m_queue.bufferedSpans() > 0;
}

void SlicedDrain::drainAll(const Store &store)
{
    while (step(store)) { }
}
