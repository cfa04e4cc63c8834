#include "LiveStore.h"

#include "OtlpJsonWriter.h"

#include "io/SpanTraceBuilder.h"

#include <QIODevice>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace {

constexpr size_t kMaxRejected = 10'000;

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
        m_traceIndex.erase(oldest.id);
        m_traces.pop_front();
        ++m_firstTrace;
        ++evicted;
    }
    if (evicted > 0)
        ++m_changes;
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
    return std::count_if(m_traces.begin(), m_traces.end(), [&](const Trace &trace) { return complete(trace, nowNs); });
}

bool LiveStore::changed(qint64 nowNs, const ReceiveStats::Snapshot &received) const
{
    return m_changes != m_builtChanges || refusedRequests(received) != m_builtRefusals
        || completeCount(nowNs) != m_builtComplete;
}

std::shared_ptr<TraceStore> LiveStore::snapshot(qint64 nowNs, const ReceiveStats::Snapshot &received)
{
    // A snapshot is replaced 4 times a second and its last holder is usually
    // the GUI thread: freeing ~100 MB of columns and strings there took it
    // away for tens of ms, so the last holder hands the store to a thread of
    // its own to free (not Qt's global pool, which painting waits on).
    std::shared_ptr<TraceStore> store(new TraceStore, [](TraceStore *old) { StoreDisposer::dispose(old); });
    store->format = QStringLiteral("otlp-live");
    store->sourceFiles = {m_options.label};
    SpanTraceBuilder builder(*store, m_options.label);
    // Every interned resource and scope, in order: their indices in the
    // builder are then the spans' own.
    std::vector<qint32> resources;
    resources.reserve(m_resources.size());
    for (const auto &attributes : m_resources)
        resources.push_back(builder.addResource(attributes));
    std::vector<qint32> scopes;
    scopes.reserve(m_scopes.size());
    for (const auto &scope : m_scopes)
        scopes.push_back(builder.addScope(scope.name, scope.version, scope.attributes));
    qint64 shown = 0;
    SpanRecord remapped;
    for (const Trace &trace : m_traces) {
        if (!complete(trace, nowNs))
            continue;
        ++shown;
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
    store->rejected.insert(store->rejected.end(), m_rejected.begin(), m_rejected.end());
    if (m_counts.rejectedSpans > qint64(m_rejected.size()))
        store->notices.push_back({m_options.label, 0,
                                  QStringLiteral("%1 spans were rejected; the newest %2 are listed")
                                      .arg(m_counts.rejectedSpans)
                                      .arg(m_rejected.size())});
    for (const auto &[status, group] : received.refusals) {
        const QString answer = status.startsWith(QLatin1String("gRPC ")) ? status : QStringLiteral("HTTP ") + status;
        store->notices.push_back({m_options.label, 0,
                                  QStringLiteral("%1 export request(s) refused whole with %2: %3")
                                      .arg(group.count)
                                      .arg(answer, group.example)});
    }
    if (m_counts.evictedWorkflows > 0)
        store->notices.push_back({m_options.label, 0,
                                  QStringLiteral("rolling mode: %1 older workflows (%2 spans) evicted")
                                      .arg(m_counts.evictedWorkflows)
                                      .arg(m_counts.evictedSpans)});
    m_builtChanges = m_changes;
    m_builtComplete = shown;
    m_builtRefusals = refusedRequests(received);
    return store;
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
