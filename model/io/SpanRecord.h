#pragma once

#include "store/SpanKind.h"
#include "store/Stamp.h"

#include <QString>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

// A list that keeps its elements' storage between records: clear() only
// resets the count, so a loader refilling the same SpanRecord for every span
// reuses the strings' capacity instead of allocating again.
template<typename T> class RecycledList
{
public:
    T &add()
    {
        if (m_count == m_items.size())
            m_items.emplace_back();
        T &item = m_items[m_count++];
        item.clear();
        return item;
    }
    void clear() { m_count = 0; }
    void pop() { --m_count; }
    size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    T &operator[](size_t i) { return m_items[i]; }
    const T &operator[](size_t i) const { return m_items[i]; }
    T &back() { return m_items[m_count - 1]; }
    const T *begin() const { return m_items.data(); }
    const T *end() const { return m_items.data() + m_count; }

private:
    std::vector<T> m_items;
    size_t m_count = 0;
};

// An attribute value as the source gave it. `text` is the display form
// (JSON text for arrays and kvlists); `number` is set for numeric values.
// Arrays of scalars also keep each element's text in `elements`, which the
// attribute contract uses for span-id lists and token times.
struct AttributeValue
{
    enum class Type : quint8 { Empty, String, Int, Double, Bool, Bytes, Array, Kvlist };

    Type type = Type::Empty;
    std::string text;
    qint64 integer = 0;
    double number = std::numeric_limits<double>::quiet_NaN();
    std::vector<std::string> elements;

    void clear()
    {
        type = Type::Empty;
        text.clear();
        integer = 0;
        number = std::numeric_limits<double>::quiet_NaN();
        elements.clear();
    }
    bool isNumeric() const { return type == Type::Int || type == Type::Double; }
};

struct SpanAttribute
{
    std::string key;
    AttributeValue value;

    void clear()
    {
        key.clear();
        value.clear();
    }
};

struct SpanEventRecord
{
    qint64 time = kNoTime;
    std::string name;
    RecycledList<SpanAttribute> attributes;

    void clear()
    {
        time = kNoTime;
        name.clear();
        attributes.clear();
    }
};

// A reference to another span: OTLP link, Jaeger reference beyond the parent.
struct SpanLinkRecord
{
    enum class Kind : quint8 { Link, FollowsFrom, Dependency };

    std::string traceId; // normalised; empty means "this trace"
    std::string spanId;  // normalised
    Kind kind = Kind::Link;
    RecycledList<SpanAttribute> attributes;

    void clear()
    {
        traceId.clear();
        spanId.clear();
        kind = Kind::Link;
        attributes.clear();
    }
};

// One span as a loader read it, before it is interned into the SpanTable.
// Ids are already normalised (see SpanId); times are ns on the source clock.
struct SpanRecord
{
    std::string traceId;
    std::string spanId;
    std::string parentSpanId; // empty for a root
    std::string name;
    std::string operation; // the format's own kind when it has one (Langfuse type)
    std::string service;   // used when `resource` is -1 or has no service.name
    SpanKind kind = SpanKind::Unspecified;
    SpanStatus status = SpanStatus::Unset;
    std::string statusMessage;
    qint64 start = kNoTime;
    qint64 end = kNoTime;
    qint64 line = 0;         // 1-based line in the file, 0 when not meaningful
    qint32 resource = -1;    // SpanTable resource index
    qint32 scope = -1;       // SpanTable scope index
    qint32 inputTokens = -1; // format-level usage (Langfuse usageDetails); attributes win
    qint32 outputTokens = -1;
    RecycledList<SpanAttribute> attributes;
    RecycledList<SpanEventRecord> events;
    RecycledList<SpanLinkRecord> links;

    void clear()
    {
        traceId.clear();
        spanId.clear();
        parentSpanId.clear();
        name.clear();
        operation.clear();
        service.clear();
        kind = SpanKind::Unspecified;
        status = SpanStatus::Unset;
        statusMessage.clear();
        start = kNoTime;
        end = kNoTime;
        line = 0;
        resource = -1;
        scope = -1;
        inputTokens = -1;
        outputTokens = -1;
        attributes.clear();
        events.clear();
        links.clear();
    }

    const SpanAttribute *findAttribute(std::string_view key) const
    {
        for (const auto &attribute : attributes) {
            if (attribute.key == key)
                return &attribute;
        }
        return nullptr;
    }
};
