#pragma once

#include "SpanRecord.h"
#include "SpanSink.h"
#include "SpanTraceLinker.h"
#include "TimeLimits.h"

#include "store/StringArena.h"
#include "store/TraceStore.h"

#include <QString>

#include <string>
#include <unordered_map>
#include <vector>

namespace TracelaneContract {
struct SpanContract;
}

// Names of a span format's time and parent fields, for messages.
struct SpanFieldNames
{
    QString start = QStringLiteral("startTimeUnixNano");
    QString end = QStringLiteral("endTimeUnixNano");
    QString parent = QStringLiteral("parentSpanId");
};

// Turns spans from any span format (OTLP, Jaeger, any-agent, Langfuse) into
// TraceStore::spans and ::workflows, the same way for all of them:
// - each span is validated (times, self-parent) and interpreted once
//   (GenAI category, token usage, vLLM phases, Tracelane contract);
// - finish() groups spans by trace (traces split across lines merge),
//   resolves parents by span id within the trace, flags orphans and
//   duplicates, rejects spans on a parent cycle, resolves dependency edges
//   and links, and summarises every workflow into a RequestTable row.
// Nothing is dropped silently: every refusal is a RejectedRecord.
class SpanTraceBuilder final : public SpanSink
{
public:
    // Longest span accepted (TimeLimits: the same for every format).
    static constexpr qint64 kMaxSpanNs = TimeLimits::kMaxDurationNs;

    SpanTraceBuilder(TraceStore &store, QString fileName, SpanFieldNames fields = {});

    qint32 addResource(const RecycledList<SpanAttribute> &attributes) override;
    qint32 addScope(std::string_view name, std::string_view version,
                    const RecycledList<SpanAttribute> &attributes) override;

    void addSpan(const SpanRecord &record) override;
    void rejectSpan(const SpanRecord &record, const QString &field, const QString &reason) override;

    // Why the builder would refuse `record` (times, self-parent), or an empty
    // reason: a live receiver asks before it answers the exporter, so its
    // count of rejected spans is the builder's own.
    struct Refusal
    {
        QString field;
        QString reason;
        bool refused() const { return !reason.isEmpty(); }
    };
    static Refusal check(const SpanRecord &record, const SpanFieldNames &fields = {});
    void reject(qint64 line, const QString &field, const QString &reason);
    void notice(qint64 line, const QString &message);

    qint64 spanCount() const { return m_table.rowCount(); }
    bool hasRejections() const { return !m_store.rejected.empty(); }
    const QString &fileName() const { return m_file; }

    // Resolves everything that needs the whole file; call once, last.
    void finish();
    // After finish(): whether some trace had too many orphans to place them
    // all (SpanTraceLinker::appendSummaryNotices says so).
    bool adoptionTruncated() const { return m_adoptionTruncated; }

private:
    void appendModelCall(const SpanRecord &record, bool isModelCall, const TracelaneContract::SpanContract &contract);

    TraceStore &m_store;
    SpanTable &m_table;
    QString m_file;
    SpanFieldNames m_fields;

    // Staging, released by finish().
    std::unordered_map<std::string, quint32> m_traceIndex;
    std::vector<std::string> m_traceIds;
    std::vector<quint32> m_traceOf; // per row
    StringArena m_parentIds;        // per row; empty for a root
    std::vector<SpanTraceLinker::Reference> m_references;
    std::vector<std::string> m_resourceServices;
    std::vector<SpanTable::AttributeInput> m_sharedScratch;
    bool m_versionNoticed = false;
    bool m_adoptionTruncated = false;
};
