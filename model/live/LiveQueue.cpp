#include "LiveQueue.h"

bool LiveQueue::full() const
{
    QMutexLocker locker(&m_mutex);
    return m_spans >= m_maxSpans;
}

void LiveQueue::push(ExportBatch &&batch)
{
    QMutexLocker locker(&m_mutex);
    m_spans += qint64(batch.spans.size());
    m_batches.push_back(std::move(batch));
}

std::vector<ExportBatch> LiveQueue::takeAll()
{
    std::vector<ExportBatch> out;
    QMutexLocker locker(&m_mutex);
    out.reserve(m_batches.size());
    for (auto &batch : m_batches)
        out.push_back(std::move(batch));
    m_batches.clear();
    m_spans = 0;
    return out;
}

std::vector<ExportBatch> LiveQueue::take(qint64 maxSpans)
{
    std::vector<ExportBatch> out;
    QMutexLocker locker(&m_mutex);
    qint64 taken = 0;
    while (!m_batches.empty() && (out.empty() || taken < maxSpans)) {
        taken += qint64(m_batches.front().spans.size());
        out.push_back(std::move(m_batches.front()));
        m_batches.pop_front();
    }
    m_spans -= taken;
    return out;
}

qint64 LiveQueue::bufferedSpans() const
{
    QMutexLocker locker(&m_mutex);
    return m_spans;
}
