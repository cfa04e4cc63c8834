#pragma once

#include "store/SpanCategory.h"

#include <QString>
#include <QStringView>

#include <vector>

class TraceStore;

// What critical-path time is grouped by when workflows are compared.
enum class SpanKeyKind {
    Kind,      // the span's category: model call, tool, retrieval, agent...
    Service,   // service.name of its resource (Jaeger: the process)
    Operation, // gen_ai.operation.name or the format's own kind
    Name,      // the span name, normalised (normaliseSpanName)
};

QString spanKeyKindKey(SpanKeyKind kind); // "kind", "service", "operation", "name"
bool spanKeyKindFromKey(const QString &key, SpanKeyKind *kind);

// A span name with the parts that vary per call replaced, so "GET
// /user/123" and "GET /user/456" are one group:
// - a UUID, or a token of 8+ hex digits with at least one digit -> "{id}";
// - a number standing alone (not inside a word: "/123", "call_17", "step 12")
//   -> "{n}", except a single digit (or d.d) joined by '-' or '.' to a word,
//   which is a version ("gpt-4", "gpt-4.1", "claude-3-5-sonnet" stay).
QString normaliseSpanName(QStringView name);

// Every span of a store mapped to a dense key code for one key kind, with
// the keys' texts. Time on a critical path is a span's own work or, for a
// span with children, its coordination gap (its own time before, between
// and after its children); a span that ran past its parent's end (async
// work, clock skew) adds its overrun to the workflow's total. The three are
// kept apart: each base key k has gapOf(k) and overrunOf(k). One more key
// holds idle time between root spans.
class SpanKeys
{
public:
    static SpanKeys build(const TraceStore &store, SpanKeyKind kind);

    SpanKeyKind kind() const { return m_kind; }
    quint32 baseCount() const { return quint32(m_texts.size()); }
    // Base keys, their gap keys, their overrun keys, then the idle key.
    quint32 keyCount() const { return 3 * baseCount() + 1; }
    quint32 keyOf(qint32 spanRow) const { return m_keyOfSpan[size_t(spanRow)]; }
    quint32 gapOf(quint32 base) const { return baseCount() + base; }
    quint32 overrunOf(quint32 base) const { return 2 * baseCount() + base; }
    quint32 idleKey() const { return 3 * baseCount(); }
    bool isGap(quint32 key) const { return key >= baseCount() && key < 2 * baseCount(); }
    bool isOverrun(quint32 key) const { return key >= 2 * baseCount() && key < idleKey(); }
    quint32 baseOf(quint32 key) const { return key == idleKey() ? key : key % baseCount(); }

    // "tool", "checkout", "idle between root spans": the base key's text
    // (variants are labelled by PathAttribution::label).
    QString text(quint32 key) const;
    // The category most spans of the base key have: which advice fits it.
    SpanCategory category(quint32 key) const
    {
        return key == idleKey() ? SpanCategory::Other : m_category[size_t(baseOf(key))];
    }

    size_t memoryBytes() const { return m_keyOfSpan.capacity() * sizeof(quint32); }

private:
    SpanKeyKind m_kind = SpanKeyKind::Kind;
    std::vector<quint32> m_keyOfSpan;
    std::vector<QString> m_texts;
    std::vector<SpanCategory> m_category;
};
