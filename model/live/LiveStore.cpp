#include "LiveStore.h"

#include "OtlpJsonWriter.h"

#include "io/SpanStorePart.h"
#include "io/SpanTraceBuilder.h"
#include "io/SpanTraceLinker.h"

#include <QIODevice>
#include <QSet>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace {

constexpr size_t kMaxRejected = 10'000;
constexpr size_t kMaxNotices = 10'000; // the builder's notices a grown store keeps

// One thread that frees replaced snapshots (see snapshot()): plain
// std::thread, no QObject, so it belongs to no event loop.
class StoreDisposer
{
public:
    static void dispose(TraceStore *store) { instance().push(store); }

private:
    static StoreDisposer &instance()
    {
        static StoreDisposer disposer;
        return disposer;
    }
    StoreDisposer()
        : m_thread([this] { run(); })
    { }
    ~StoreDisposer()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }
    void push(TraceStore *store)
    {
        {
            std::lock_guard lock(m_mutex);
            m_queue.push_back(store);
        }
        m_wake.notify_one();
    }
    void run()
    {
        std::unique_lock lock(m_mutex);
        while (true) {
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty())
                return; // stopping, nothing left
            TraceStore *store = m_queue.front();
            m_queue.pop_front();
            lock.unlock();
            delete store;
            lock.lock();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<TraceStore *> m_queue;
    bool m_stop = false;
    std::thread m_thread;
};

void appendAttributes(std::string &key, const RecycledList<SpanAttribute> &attributes)
{
    for (const SpanAttribute &attribute : attributes) {
        key += attribute.key;
        key += '\x1f';
        key += char('0' + int(attribute.value.type));
        key += attribute.value.text;
        key += '\x1e';
    }
}

qint64 refusedRequests(const ReceiveStats::Snapshot &received)
{
    qint64 refused = 0;
    for (const auto &[status, group] : received.refusals)
        refused += group.count;
    return refused;
}

} // namespace

// The builder's records of what it built into a kept store: every snapshot
// of that store shows them again, with the receiver's newest rejections.
struct LiveStore::Grown
{
    qint64 epoch = 0;
    size_t shown = 0; // entries of m_shown built into the store
    bool adoptionTruncated = false;
    std::vector<RejectedRecord> rejected;
    std::vector<LoadNotice> notices; // without the linker's summary, said once for the whole store
    qint64 omittedNotices = 0;
    size_t adoptionsListed = 0;
    QSet<QString> said; // each notice's text once (the contract version is noticed by every part's builder)

    // Moves what the builder refused and noticed in `built` here, as one
    // build of everything would have said it: the linker's closing summary
    // left out (decorate() says it for the whole store), orphan attachments
    // listed up to the linker's limit in all, not per part.
    void keep(TraceStore &built, bool truncated, const QString &label)
    {
        adoptionTruncated = adoptionTruncated || truncated;
        std::vector<LoadNotice> summary;
        SpanTraceLinker::appendSummaryNotices(built.spans, label, truncated, summary);
        size_t end = built.notices.size();
        for (auto it = summary.rbegin(); it != summary.rend() && end > 0; ++it) {
            const LoadNotice &last = built.notices[end - 1];
            if (last.line == it->line && last.message == it->message)
                --end;
        }
        qsizetype adopted = 0;
        for (qsizetype row = 0; row < built.spans.rowCount(); ++row)
            adopted += (built.spans.flags(row) & SpanTable::Adopted) != 0 ? 1 : 0;
        const size_t listed = std::min(SpanTraceLinker::kAdoptionsListed, size_t(adopted));
        const size_t adoptionsFrom = end >= listed ? end - listed : 0;
        for (size_t i = 0; i < end; ++i) {
            LoadNotice &notice = built.notices[i];
            if (i >= adoptionsFrom) {
                if (adoptionsListed >= SpanTraceLinker::kAdoptionsListed)
                    continue;
                ++adoptionsListed;
            }
            if (said.contains(notice.message))
                continue;
            if (notices.size() >= kMaxNotices) {
                ++omittedNotices;
                continue;
            }
            said.insert(notice.message);
            notices.push_back(std::move(notice));
        }
        built.notices.clear();
        std::move(built.rejected.begin(), built.rejected.end(), std::back_inserter(rejected));
        built.rejected.clear();
    }
};

// Stores the views have let go of, kept to grow the next snapshot from. The
// last holder of a snapshot gives it back from whatever thread it is on.
class LiveStore::Pool
{
public:
    struct Kept
    {
        std::unique_ptr<TraceStore> store;
        std::shared_ptr<Grown> grown;
    };

    void give(Kept kept)
    {
        std::unique_lock lock(m_mutex);
        if (kept.grown->epoch == m_outEpoch && m_out > 0)
            --m_out;
        if (!m_open) {
            lock.unlock();
            dispose(kept);
            return;
        }
        m_kept.push_back(std::move(kept));
        if (m_kept.size() <= kKept)
            return;
        const auto least = std::min_element(m_kept.begin(), m_kept.end(), [](const Kept &a, const Kept &b) {
            return std::pair(a.grown->epoch, a.grown->shown) < std::pair(b.grown->epoch, b.grown->shown);
        });
        Kept dropped = std::move(*least);
        m_kept.erase(least);
        lock.unlock();
        dispose(dropped);
    }

    // The kept store of `epoch` holding the most shown traces (none when
    // there is none); stores of older epochs are freed.
    Kept take(qint64 epoch)
    {
        std::vector<Kept> stale;
        Kept best;
        {
            std::lock_guard lock(m_mutex);
            for (Kept &kept : m_kept) {
                if (kept.grown->epoch != epoch)
                    stale.push_back(std::move(kept));
                else if (!best.store || kept.grown->shown > best.grown->shown)
                    std::swap(best, kept);
            }
            m_kept.erase(std::remove_if(m_kept.begin(), m_kept.end(), [](const Kept &kept) { return !kept.store; }),
                         m_kept.end());
        }
        for (Kept &kept : stale)
            dispose(kept);
        return best;
    }

    void handedOut(qint64 epoch)
    {
        std::lock_guard lock(m_mutex);
        if (epoch != m_outEpoch) {
            m_outEpoch = epoch;
            m_out = 0;
        }
        ++m_out;
    }

    // No store of `epoch` is kept, and the views hold two or more of them:
    // the older comes back once they let go of it.
    bool worthWaiting(qint64 epoch)
    {
        std::lock_guard lock(m_mutex);
        const bool kept = std::any_of(m_kept.begin(), m_kept.end(),
                                      [epoch](const Kept &each) { return each.grown->epoch == epoch; });
        return m_open && !kept && m_outEpoch == epoch && m_out >= 2;
    }

    // Frees what is kept; stores given back later are kept again.
    void release()
    {
        std::vector<Kept> kept;
        {
            std::lock_guard lock(m_mutex);
            kept.swap(m_kept);
        }
        for (Kept &each : kept)
            dispose(each);
    }

    qsizetype keptCount()
    {
        std::lock_guard lock(m_mutex);
        return qsizetype(m_kept.size());
    }

    void close()
    {
        std::vector<Kept> kept;
        {
            std::lock_guard lock(m_mutex);
            m_open = false;
            kept.swap(m_kept);
        }
        for (Kept &each : kept)
            dispose(each);
    }

private:
    static void dispose(Kept &kept)
    {
        if (kept.store)
            StoreDisposer::dispose(kept.store.release());
    }

    // One: the snapshot before the one shown (each kept store costs as much
    // memory as the one the views hold). When the views let go of two, the
    // one that holds more is kept.
    static constexpr size_t kKept = 1;
    std::mutex m_mutex;
    std::vector<Kept> m_kept;
    bool m_open = true;
    qint64 m_outEpoch = -1; // the epoch of the stores handed out and not yet back
    int m_out = 0;
};

LiveStore::PoolHandle::PoolHandle()
    : m_pool(std::make_shared<Pool>())
{ }

LiveStore::PoolHandle &LiveStore::PoolHandle::operator=(PoolHandle &&other) noexcept
{
    if (this != &other) {
        close();
        m_pool = std::move(other.m_pool);
    }
    return *this;
}

LiveStore::PoolHandle::~PoolHandle()
{
    close();
}

void LiveStore::PoolHandle::close()
{
    if (m_pool)
        m_pool->close();
}

LiveStore::LiveStore()
    : LiveStore(Options{})
{ }

LiveStore::LiveStore(Options options)
    : m_options(std::move(options))
{ }

qint32 LiveStore::resourceIndex(const RecycledList<SpanAttribute> &attributes)
{
    std::string key;
    appendAttributes(key, attributes);
    const auto [it, inserted] = m_resourceKeys.try_emplace(std::move(key), qint32(m_resources.size()));
    if (inserted)
        m_resources.push_back(attributes);
    return it->second;
}

qint32 LiveStore::scopeIndex(const ExportBatch::Scope &scope)
{
    std::string key = scope.name + '\x1d' + scope.version + '\x1d';
    appendAttributes(key, scope.attributes);
    const auto [it, inserted] = m_scopeKeys.try_emplace(std::move(key), qint32(m_scopes.size()));
    if (inserted)
        m_scopes.push_back(scope);
    return it->second;
}

void LiveStore::add(ExportBatch &batch, qint64 receivedNs)
{
    // Resources and scopes are interned once (an exporter repeats the same
    // few in every request), so a long session does not grow by them.
    std::vector<qint32> resources(batch.resources.size(), -1);
    std::vector<qint32> scopes(batch.scopes.size(), -1);
    for (SpanRecord &span : batch.spans) {
        if (span.resource >= 0 && size_t(span.resource) < resources.size()) {
            qint32 &mapped = resources[size_t(span.resource)];
            if (mapped < 0)
                mapped = resourceIndex(batch.resources[size_t(span.resource)]);
            span.resource = mapped;
        } else {
            span.resource = -1;
        }
        if (span.scope >= 0 && size_t(span.scope) < scopes.size()) {
            qint32 &mapped = scopes[size_t(span.scope)];
            if (mapped < 0)
                mapped = scopeIndex(batch.scopes[size_t(span.scope)]);
            span.scope = mapped;
        } else {
            span.scope = -1;
        }
        const auto [it, inserted] = m_traceIndex.try_emplace(span.traceId, m_firstTrace + qint64(m_traces.size()));
        if (inserted) {
            m_traces.push_back({span.traceId, {}, receivedNs, -1});
            ++m_counts.workflowsHeld;
        }
        Trace &trace = m_traces[size_t(it->second - m_firstTrace)];
        if (trace.shown)
            ++m_epoch; // the stores kept for growing hold this trace without the span
        if (span.parentSpanId.empty() && trace.rootReceivedNs < 0)
            trace.rootReceivedNs = receivedNs;
        trace.spans.push_back(std::move(span));
        ++m_counts.spansHeld;
    }
    for (const ExportBatch::Rejection &rejection : batch.rejected) {
        m_rejected.push_back(
            {m_options.label, batch.sequence, QString::fromStdString(rejection.traceId), rejection.field,
             rejection.reason,
             rejection.spanId.empty() ? QStringLiteral("(no id)") : QString::fromStdString(rejection.spanId)});
        if (m_rejected.size() > kMaxRejected)
            m_rejected.pop_front();
    }
    m_counts.rejectedSpans += qint64(batch.rejected.size());
    if (!batch.spans.empty() || !batch.rejected.empty())
        ++m_changes;
    batch.spans.clear();
}

qint64 LiveStore::evict(qint64 nowNs)
{
    const Rolling &rolling = m_options.rolling;
    qint64 evicted = 0;
    bool shownEvicted = false;
    while (!m_traces.empty()) {
        const Trace &oldest = m_traces.front();
        const bool tooMany = rolling.maxWorkflows > 0 && qint64(m_traces.size()) > rolling.maxWorkflows;
        const bool tooOld = rolling.maxAgeNs > 0 && nowNs - oldest.firstReceivedNs > rolling.maxAgeNs;
        if (!tooMany && !tooOld)
            break;
        m_counts.spansHeld -= qint64(oldest.spans.size());
        m_counts.evictedSpans += qint64(oldest.spans.size());
        ++m_counts.evictedWorkflows;
        --m_counts.workflowsHeld;
        shownEvicted = shownEvicted || oldest.shown;
        m_traceIndex.erase(oldest.id);
        m_traces.pop_front();
        ++m_firstTrace;
        ++evicted;
    }
    if (evicted > 0)
        ++m_changes;
    if (shownEvicted) {
        // The kept stores begin with traces now gone: the next snapshot is
        // built whole (a store cannot drop its first rows in place).
        ++m_epoch;
        m_shown.erase(std::remove_if(m_shown.begin(), m_shown.end(), [this](qint64 t) { return t < m_firstTrace; }),
                      m_shown.end());
    }
    return evicted;
}

bool LiveStore::complete(const Trace &trace, qint64 nowNs) const
{
    if (trace.rootReceivedNs >= 0)
        return nowNs - trace.rootReceivedNs >= m_options.graceNs;
    return nowNs - trace.firstReceivedNs >= m_options.rootlessAfterNs;
}

qint64 LiveStore::completeCount(qint64 nowNs) const
{
    return std::count_if(m_traces.begin(), m_traces.end(),
                         [&](const Trace &trace) { return trace.shown || complete(trace, nowNs); });
}

bool LiveStore::changed(qint64 nowNs, const ReceiveStats::Snapshot &received) const
{
    return m_changes != m_builtChanges || refusedRequests(received) != m_builtRefusals
        || completeCount(nowNs) != qint64(m_shown.size());
}

void LiveStore::markShown(qint64 nowNs)
{
    for (size_t i = 0; i < m_traces.size(); ++i) {
        Trace &trace = m_traces[i];
        if (!trace.shown && complete(trace, nowNs)) {
            trace.shown = true;
            m_shown.push_back(m_firstTrace + qint64(i));
        }
    }
}

bool LiveStore::build(TraceStore &store, size_t firstShown) const
{
    SpanTraceBuilder builder(store, m_options.label);
    // Every interned resource and scope, in order: their indices in the
    // builder are then the spans' own (and a part's begin with its store's).
    std::vector<qint32> resources;
    resources.reserve(m_resources.size());
    for (const auto &attributes : m_resources)
        resources.push_back(builder.addResource(attributes));
    std::vector<qint32> scopes;
    scopes.reserve(m_scopes.size());
    for (const auto &scope : m_scopes)
        scopes.push_back(builder.addScope(scope.name, scope.version, scope.attributes));
    SpanRecord remapped;
    for (size_t i = firstShown; i < m_shown.size(); ++i) {
        const Trace &trace = m_traces[size_t(m_shown[i] - m_firstTrace)];
        for (const SpanRecord &span : trace.spans) {
            const qint32 resource = span.resource >= 0 ? resources[size_t(span.resource)] : -1;
            const qint32 scope = span.scope >= 0 ? scopes[size_t(span.scope)] : -1;
            if (resource == span.resource && scope == span.scope) {
                builder.addSpan(span);
                continue;
            }
            remapped = span;
            remapped.resource = resource;
            remapped.scope = scope;
            builder.addSpan(remapped);
        }
    }
    builder.finish();
    return builder.adoptionTruncated();
}

void LiveStore::decorate(TraceStore &store, const Grown &grown, const ReceiveStats::Snapshot &received) const
{
    store.format = QStringLiteral("otlp-live");
    store.sourceFiles = {m_options.label};
    store.rejected = grown.rejected;
    store.rejected.insert(store.rejected.end(), m_rejected.begin(), m_rejected.end());
    store.notices = grown.notices;
    if (grown.omittedNotices > 0)
        store.notices.push_back(
            {m_options.label, 0, QStringLiteral("%1 more notices not listed").arg(grown.omittedNotices)});
    SpanTraceLinker::appendSummaryNotices(store.spans, m_options.label, grown.adoptionTruncated, store.notices);
    if (m_counts.rejectedSpans > qint64(m_rejected.size()))
        store.notices.push_back({m_options.label, 0,
                                 QStringLiteral("%1 spans were rejected; the newest %2 are listed")
                                     .arg(m_counts.rejectedSpans)
                                     .arg(m_rejected.size())});
    for (const auto &[status, group] : received.refusals) {
        const QString answer = status.startsWith(QLatin1String("gRPC ")) ? status : QStringLiteral("HTTP ") + status;
        store.notices.push_back({m_options.label, 0,
                                 QStringLiteral("%1 export request(s) refused whole with %2: %3")
                                     .arg(group.count)
                                     .arg(answer, group.example)});
    }
    if (m_counts.evictedWorkflows > 0)
        store.notices.push_back({m_options.label, 0,
                                 QStringLiteral("rolling mode: %1 older workflows (%2 spans) evicted")
                                     .arg(m_counts.evictedWorkflows)
                                     .arg(m_counts.evictedSpans)});
}

std::shared_ptr<TraceStore> LiveStore::snapshot(qint64 nowNs, const ReceiveStats::Snapshot &received)
{
    markShown(nowNs);
    Pool::Kept kept;
    if (m_options.growSnapshots && m_pool.get())
        kept = m_pool.get()->take(m_epoch);
    if (!kept.store) {
        kept.store = std::make_unique<TraceStore>();
        kept.grown = std::make_shared<Grown>();
        kept.grown->epoch = m_epoch;
    }
    TraceStore &store = *kept.store;
    Grown &grown = *kept.grown;
    if (grown.shown < m_shown.size()) {
        if (grown.shown == 0) {
            ++m_fullBuilds;
            store = TraceStore();
            const bool truncated = build(store, 0);
            grown.keep(store, truncated, m_options.label);
        } else {
            TraceStore part;
            const bool truncated = build(part, grown.shown);
            grown.keep(part, truncated, m_options.label);
            SpanStorePart::append(store, part);
        }
        grown.shown = m_shown.size();
    }
    decorate(store, grown, received);
    m_builtChanges = m_changes;
    m_builtRefusals = refusedRequests(received);

    // The last holder gives the store back to the pool to grow the next
    // snapshot from (a closed or destroyed pool has it freed). Freeing ~100 MB
    // of columns and strings on the GUI thread took it away for tens of ms, so
    // a store that is not kept goes to a thread of its own to free (not Qt's
    // global pool, which painting waits on).
    std::weak_ptr<Pool> pool;
    if (m_options.growSnapshots && m_pool.get()) {
        pool = m_pool.get();
        m_pool.get()->handedOut(grown.epoch);
    }
    return {kept.store.release(), [pool, grown = kept.grown](TraceStore *old) {
                if (const auto alive = pool.lock())
                    alive->give({std::unique_ptr<TraceStore>(old), grown});
                else
                    StoreDisposer::dispose(old);
            }};
}

void LiveStore::releaseKeptStores()
{
    m_pool.get()->release();
}

qsizetype LiveStore::keptStores() const
{
    return m_pool.get()->keptCount();
}

bool LiveStore::waitForKeptStore() const
{
    return m_options.growSnapshots && m_pool.get() && !m_shown.empty() && m_pool.get()->worthWaiting(m_epoch);
}

LiveStore::Counts LiveStore::counts(qint64 nowNs) const
{
    Counts counts = m_counts;
    counts.workflowsPending = counts.workflowsHeld - completeCount(nowNs);
    return counts;
}

qint64 LiveStore::writeCapture(QIODevice &out, QString *error, int spansPerLine) const
{
    // The interned resources and scopes are the batch's own: the spans'
    // indices need no remapping.
    ExportBatch batch;
    batch.resources = m_resources;
    batch.scopes = m_scopes;
    batch.spans.reserve(size_t(std::max(1, spansPerLine)));
    qint64 written = 0;
    const auto writeLine = [&] {
        if (batch.spans.empty())
            return true;
        const std::string line = OtlpJsonWriter::line(batch) + '\n';
        if (out.write(line.data(), qint64(line.size())) != qint64(line.size())) {
            *error = out.errorString();
            return false;
        }
        written += qint64(batch.spans.size());
        batch.spans.clear();
        return true;
    };
    for (const Trace &trace : m_traces) {
        for (const SpanRecord &span : trace.spans) {
            batch.spans.push_back(span);
            if (qint64(batch.spans.size()) >= spansPerLine && !writeLine())
                return -1;
        }
    }
    return writeLine() ? written : -1;
}
