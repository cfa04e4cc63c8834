#pragma once

#include "ExportBatch.h"

#include <QMutex>

#include <deque>
#include <vector>

// Export batches between the receiver's thread and whoever stores them (the
// CLI's main loop, the GUI's live store). Bounded by spans: when the taker
// falls behind (or is paused) past `maxSpans`, the receiver answers 429
// with Retry-After and exporters retry later; nothing is dropped here.
class LiveQueue
{
public:
    explicit LiveQueue(qint64 maxSpans)
        : m_maxSpans(maxSpans)
    { }

    bool full() const;
    void push(ExportBatch &&batch);
    std::vector<ExportBatch> takeAll();
    // Whole batches from the front until they hold `maxSpans` or more (at
    // least one batch when any is queued): a taker that stores in bounded
    // slices never holds its thread for a burst's worth of spans.
    std::vector<ExportBatch> take(qint64 maxSpans);
    qint64 bufferedSpans() const;

private:
    mutable QMutex m_mutex;
    std::deque<ExportBatch> m_batches;
    qint64 m_spans = 0;
    qint64 m_maxSpans;
};
