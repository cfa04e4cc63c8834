#pragma once

#include "ExportBatch.h"
#include "ReceiveStats.h"

#include "store/TraceStore.h"

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

class QIODevice;

// The spans a live session holds, grouped by trace in the order traces were
// first seen, and the TraceStore the views show, built from them on demand.
//
// A trace is shown once it is complete: its root span has arrived and a
// grace period has passed for late children (OTLP exporters send a span
// when it ends, so children usually come first); a trace whose root never
// comes is shown after `rootlessAfterNs`, its spans flagged as orphans by the
// linker. Late spans of a shown trace join it at the next snapshot (traces
// split across batches merge, as in a file).
//
// A snapshot is a TraceStore built by the file loaders' SpanTraceBuilder
// (so one set of rules), never a copy of the store the views hold. The first
// is built from every shown span; after that a snapshot is a store handed
// back by the views (the last holder of an older snapshot gives it back to
// this store's pool) grown by the traces shown since it was built
// (SpanStorePart), so a refresh costs the spans that arrived, not every span
// held. A late span joining a shown trace, or the eviction of a shown trace,
// makes the kept stores stale: the next snapshot is built whole again. The
// rolling mode bounds what is held: keep the workflows first seen in the last
// N minutes and/or the newest N workflows, evicting the oldest and counting
// what went.
// Rejected spans of accepted requests become the store's rejected records
// and requests refused whole its notices. Not thread-safe: one thread owns it
// (the pool alone is locked: snapshots come back from any thread).
class LiveStore
{
public:
    struct Rolling
    {
        qint64 maxAgeNs = 0;     // 0: no age limit
        qint64 maxWorkflows = 0; // 0: no count limit
        bool active() const { return maxAgeNs > 0 || maxWorkflows > 0; }
    };
    struct Options
    {
        Rolling rolling;
        qint64 graceNs = 1'000'000'000;
        qint64 rootlessAfterNs = 30'000'000'000;
        QString label = QStringLiteral("otlp-live");
        bool growSnapshots = true; // false: every snapshot is built whole (the tests compare the two)
    };
    struct Counts
    {
        qint64 spansHeld = 0;
        qint64 workflowsHeld = 0;    // traces held, complete or not
        qint64 workflowsPending = 0; // held, not yet complete
        qint64 evictedWorkflows = 0;
        qint64 evictedSpans = 0;
        qint64 rejectedSpans = 0; // rejected by admission, from accepted requests
    };

    LiveStore();
    explicit LiveStore(Options options);
    LiveStore(LiveStore &&) noexcept = default;
    LiveStore &operator=(LiveStore &&) noexcept = default;
    LiveStore(const LiveStore &) = delete;
    LiveStore &operator=(const LiveStore &) = delete;
    ~LiveStore() = default;

    void setRolling(Rolling rolling) { m_options.rolling = rolling; }
    const Options &options() const { return m_options; }

    // Takes the batch's accepted spans (moved out) and its rejections.
    void add(ExportBatch &batch, qint64 receivedNs);
    // Drops the oldest traces past the rolling limits; returns how many.
    qint64 evict(qint64 nowNs);

    // True when a snapshot at `nowNs` would differ from the last one built
    // (`received`: the receiver's answers, whose refusals become notices).
    bool changed(qint64 nowNs, const ReceiveStats::Snapshot &received) const;
    // The store of every complete trace at `nowNs`, with `refusals` (the
    // receiver's requests refused whole) as notices.
    std::shared_ptr<TraceStore> snapshot(qint64 nowNs, const ReceiveStats::Snapshot &received);
    Counts counts(qint64 nowNs) const;
    // Snapshots built from every shown span, not grown from a kept store:
    // the first, and each after a late span or an eviction made the kept
    // stores stale.
    qint64 fullBuilds() const { return m_fullBuilds; }
    // True while the views hold two or more snapshots and none has come
    // back to grow from (a background job still on the older one): the next
    // snapshot would be built whole, a stall of seconds at a million spans,
    // where waiting a moment lets it grow. The caller waits a bounded time.
    bool waitForKeptStore() const;
    // Frees the stores kept for growing and keeps none from now on (the
    // receiver stopped: no more snapshots will be built).
    void dropGrowingStores() { m_pool.close(); }
    // Frees the stores kept for growing now (paused or idle: each costs as
    // much memory as the store the views hold); the next snapshot is built
    // whole, and stores given back after it are kept again.
    void releaseKeptStores();
    qsizetype keptStores() const; // kept for growing, now

    // Every span held, complete or not (evicted ones are gone), written as
    // OTLP JSON Lines by OtlpJsonWriter, the capture format of
    // `tracelane-cli receive --out`: `spansPerLine` spans to an export
    // request line, traces in the order they were first seen. The spans
    // written; -1 with `error` when `out` refuses a write.
    qint64 writeCapture(QIODevice &out, QString *error, int spansPerLine = 512) const;

private:
    struct Trace
    {
        std::string id;
        std::vector<SpanRecord> spans;
        qint64 firstReceivedNs = 0;
        qint64 rootReceivedNs = -1; // -1: no root yet
        bool shown = false;         // in snapshots since it was first complete
    };
    class Pool;
    struct Grown;
    // Owns the pool; closing it (on destruction, or when replaced by a move)
    // frees what it keeps and makes later returns free their store.
    class PoolHandle
    {
    public:
        PoolHandle();
        PoolHandle(PoolHandle &&other) noexcept = default;
        PoolHandle &operator=(PoolHandle &&other) noexcept;
        PoolHandle(const PoolHandle &) = delete;
        PoolHandle &operator=(const PoolHandle &) = delete;
        ~PoolHandle();
        const std::shared_ptr<Pool> &get() const { return m_pool; }
        void close();

    private:
        std::shared_ptr<Pool> m_pool;
    };
    void markShown(qint64 nowNs);
    // Builds the shown traces from m_shown[firstShown] on into `store`;
    // returns whether some trace had too many orphans to place.
    bool build(TraceStore &store, size_t firstShown) const;
    void decorate(TraceStore &store, const Grown &grown, const ReceiveStats::Snapshot &received) const;
    bool complete(const Trace &trace, qint64 nowNs) const;
    qint64 completeCount(qint64 nowNs) const;
    qint32 resourceIndex(const RecycledList<SpanAttribute> &attributes);
    qint32 scopeIndex(const ExportBatch::Scope &scope);

    Options m_options;
    std::deque<Trace> m_traces;
    qint64 m_firstTrace = 0; // the index of m_traces.front() among every trace ever seen
    std::unordered_map<std::string, qint64> m_traceIndex;
    std::vector<RecycledList<SpanAttribute>> m_resources; // deduplicated by content
    std::unordered_map<std::string, qint32> m_resourceKeys;
    std::vector<ExportBatch::Scope> m_scopes;
    std::unordered_map<std::string, qint32> m_scopeKeys;
    std::deque<RejectedRecord> m_rejected; // the newest kMaxRejected
    std::vector<qint64> m_shown;           // shown traces (as m_traceIndex counts them), in the order shown
    qint64 m_epoch = 0;                    // bumped when the kept stores no longer match the shown spans
    qint64 m_fullBuilds = 0;
    PoolHandle m_pool;
    Counts m_counts;
    // What the last snapshot showed, to tell whether a new one is needed.
    qint64 m_changes = 0;
    qint64 m_builtChanges = -1;
    qint64 m_builtRefusals = -1;
};
