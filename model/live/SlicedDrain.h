#pragma once

#include "ExportBatch.h"

#include <functional>

class LiveQueue;

// Stores what a LiveQueue holds in bounded steps, so the thread that stores
// (the CLI's main loop, the GUI live store's worker) is never held for a
// burst: a step takes slices of at most `sliceSpans` and stores them until
// `stepBudgetNs` is spent or the queue is empty, and says whether more is
// waiting; the caller lets its event loop run before the next step. Nothing
// is dropped: what a step leaves stays queued, in order.
class SlicedDrain
{
public:
    struct Limits
    {
        qint64 sliceSpans = 2048;
        qint64 stepBudgetNs = 10'000'000;
    };
    using Store = std::function<void(ExportBatch &)>;

    explicit SlicedDrain(LiveQueue &queue);
    SlicedDrain(LiveQueue &queue, Limits limits);

    // One bounded step; true when the queue still holds spans.
    bool step(const Store &store);
    // Steps until the queue is empty (at shutdown, when nothing else waits).
    void drainAll(const Store &store);

    qint64 steps() const { return m_steps; }
    qint64 batchesStored() const { return m_batches; }
    qint64 spansStored() const { return m_spans; }
    // The longest step so far: how long the storing thread was held at once.
    qint64 longestStepNs() const { return m_longestStepNs; }
    qint64 longestSliceSpans() const { return m_longestSliceSpans; }

private:
    LiveQueue &m_queue;
    Limits m_limits;
    qint64 m_steps = 0;
    qint64 m_batches = 0;
    qint64 m_spans = 0;
    qint64 m_longestStepNs = 0;
    qint64 m_longestSliceSpans = 0;
};
