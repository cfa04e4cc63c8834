#pragma once

#include <QtGlobal>

#include <atomic>

// Shared between a running load and whoever watches it (GUI progress bar,
// CLI). The loader only writes the counters and reads the cancel flag; the
// watcher polls at its own pace, so progress never floods an event loop.
class LoadControl
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool isCancelled() const
    {
        return m_cancelled.load(std::memory_order_relaxed)
            || (m_followed && m_followed->load(std::memory_order_relaxed));
    }
    // Also stop when `flag` becomes true: a job runner's own cancel flag
    // (LatestJob), so a load is cancelled the same way as any other job.
    // Set before the load starts; `flag` must outlive it.
    void followCancel(const std::atomic<bool> *flag) { m_followed = flag; }

    void setTotalBytes(qint64 bytes) { m_totalBytes.store(bytes, std::memory_order_relaxed); }
    void addProcessed(qint64 bytes, qint64 records)
    {
        m_processedBytes.fetch_add(bytes, std::memory_order_relaxed);
        m_processedRecords.fetch_add(records, std::memory_order_relaxed);
    }

    // A load in stages (decompress, then parse) starts counting again.
    void resetProgress()
    {
        m_processedBytes.store(0, std::memory_order_relaxed);
        m_processedRecords.store(0, std::memory_order_relaxed);
        m_totalBytes.store(0, std::memory_order_relaxed);
    }

    qint64 totalBytes() const { return m_totalBytes.load(std::memory_order_relaxed); }
    qint64 processedBytes() const { return m_processedBytes.load(std::memory_order_relaxed); }
    qint64 processedRecords() const { return m_processedRecords.load(std::memory_order_relaxed); }

    // 0..1; 0 while the size is unknown.
    double fraction() const
    {
        const qint64 total = totalBytes();
        return total > 0 ? qMin(1.0, double(processedBytes()) / double(total)) : 0.0;
    }

private:
    std::atomic<bool> m_cancelled{false};
    const std::atomic<bool> *m_followed = nullptr;
    std::atomic<qint64> m_totalBytes{0};
    std::atomic<qint64> m_processedBytes{0};
    std::atomic<qint64> m_processedRecords{0};
};
