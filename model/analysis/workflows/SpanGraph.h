#pragma once

#include "store/Phase.h"
#include "store/SpanCategory.h"
#include "store/SpanKind.h"
#include "store/Stamp.h"
#include "store/StringArena.h"
#include "store/StringPool.h"

#include <QString>

#include <span>
#include <string_view>
#include <vector>

// One workflow's spans as the critical-path and what-if analyses see them:
// column-wise, index-based (span i is row i), times in ns on the trace clock.
// Built from a TraceStore workflow (SpanGraphBuilder) or directly in code.
// It holds raw times; clipping children to their parent happens in the
// analyses only, never here.
class SpanGraph
{
public:
    // A span as appended; `parent` is an index into this graph or -1.
    struct Span
    {
        std::string_view id;
        QString name;
        QString operation; // gen_ai.operation.name or the format's kind
        SpanCategory category = SpanCategory::Other;
        SpanKind kind = SpanKind::Unspecified; // OTel span kind (client, server, ...)
        qint32 parent = -1;
        qint64 start = 0;
        qint64 end = 0;
        bool blocksParent = true;    // false for PRODUCER→CONSUMER / FOLLOWS_FROM children
        qint64 firstToken = kNoTime; // first content-bearing token, model calls only
        qint32 outputTokens = -1;
        qint32 sourceRow = -1; // row in the SpanTable it came from
    };

    // `to` cannot start before `from` finishes. Hypothetical edges come from a
    // what-if ("if account retrieval depended on policy retrieval"): they are
    // not checked against the recorded times and do not define gaps.
    struct Dependency
    {
        qint32 from = -1;
        qint32 to = -1;
        bool hypothetical = false;
    };

    // A phase inside a span's own time (queue, prefill, first decode, stream
    // of a model call), from the attribute contract's phase timestamps.
    struct PhaseInterval
    {
        Phase phase = Phase::Queue;
        qint64 begin = 0;
        qint64 end = 0;
    };

    qint32 spanCount() const { return qint32(m_parent.size()); }
    bool isEmpty() const { return m_parent.empty(); }

    qint32 parent(qint32 span) const { return m_parent[size_t(span)]; }
    qint64 start(qint32 span) const { return m_start[size_t(span)]; }
    qint64 end(qint32 span) const { return m_end[size_t(span)]; }
    bool blocksParent(qint32 span) const { return m_blocksParent[size_t(span)] != 0; }
    qint64 firstToken(qint32 span) const { return m_firstToken[size_t(span)]; }
    qint32 outputTokens(qint32 span) const { return m_outputTokens[size_t(span)]; }
    qint32 sourceRow(qint32 span) const { return m_sourceRow[size_t(span)]; }
    std::string_view id(qint32 span) const { return m_ids.view(span); }
    QString idText(qint32 span) const;
    const QString &name(qint32 span) const { return m_strings.text(m_name[size_t(span)]); }
    const QString &operation(qint32 span) const { return m_strings.text(m_operation[size_t(span)]); }
    SpanCategory category(qint32 span) const { return m_category[size_t(span)]; }
    SpanKind kind(qint32 span) const { return m_kind[size_t(span)]; }
    // "name" or, when the name is empty, "operation" or the id: what a person reads.
    QString label(qint32 span) const;

    std::span<const PhaseInterval> phases(qint32 span) const;
    // Index of the span's first phase among all phases of the graph, so
    // per-phase values can live in one flat array of phaseTotal() entries.
    quint32 phaseOffset(qint32 span) const { return m_phaseBegin[size_t(span)]; }
    qsizetype phaseTotal() const { return qsizetype(m_phases.size()); }
    const std::vector<Dependency> &dependencies() const { return m_dependencies; }

    qint32 appendSpan(const Span &span);
    // Adds a phase to the most recently appended span.
    void appendPhase(const PhaseInterval &phase);
    void addDependency(const Dependency &dependency) { m_dependencies.push_back(dependency); }
    void setParent(qint32 span, qint32 parent) { m_parent[size_t(span)] = parent; }
    void setBlocksParent(qint32 span, bool blocks) { m_blocksParent[size_t(span)] = blocks ? 1 : 0; }
    void setFirstToken(qint32 span, qint64 time) { m_firstToken[size_t(span)] = time; }

    void reserve(qint32 spans, qint64 idBytes);
    size_t memoryBytes() const;

private:
    std::vector<qint32> m_parent;
    std::vector<qint64> m_start;
    std::vector<qint64> m_end;
    std::vector<quint8> m_blocksParent;
    std::vector<qint64> m_firstToken;
    std::vector<qint32> m_outputTokens;
    std::vector<qint32> m_sourceRow;
    std::vector<quint32> m_name;
    std::vector<quint32> m_operation;
    std::vector<SpanCategory> m_category;
    std::vector<SpanKind> m_kind;
    StringArena m_ids;
    StringPool m_strings;
    std::vector<quint32> m_phaseBegin; // spanCount() + 1 offsets into m_phases
    std::vector<PhaseInterval> m_phases;
    std::vector<Dependency> m_dependencies;
};
