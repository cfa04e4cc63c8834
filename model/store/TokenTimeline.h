#pragma once

#include "ByteBuffer.h"
#include "Stamp.h"

#include <QtGlobal>

#include <span>
#include <vector>

// When the output tokens of each request were seen on one side of the stream
// (the server emitting them, or the client receiving stream events), for every
// row of a RequestTable. Optional: a timeline without rows means the source
// had no per-token times; a row without events means that request had none.
//
// A row is a list of *events*: a time and how many tokens it carried (a client
// event that delivers a chunk of three tokens is one event of 3; server tokens
// written with the same time are one event). Events are grouped in *segments*:
// the model calls of an agent workflow each start one, and the time between
// two segments (a tool call) is not an inter-token gap.
//
// Stored delta-encoded, about 4 bytes per event: each event is one LEB128
// varint v = gap << 2 | multi << 1 | segmentStart, where gap is the time since
// the previous event (since the row's first event for a segment start, so
// segments may overlap in time), followed by varint(tokens − 2) when multi is
// set. Integer nanoseconds throughout: decoding gives back the exact times.
class TokenTimeline
{
public:
    struct Event
    {
        qint64 time = 0;
        qint32 tokens = 1;
        bool segmentStart = false;
    };

    // No row has a single event (or no rows at all).
    bool isEmpty() const { return m_eventOffsets.empty() || m_eventOffsets.back() == 0; }
    qsizetype rowCount() const { return m_eventOffsets.empty() ? 0 : qsizetype(m_eventOffsets.size()) - 1; }

    // Events (stream events, or distinct token times) of `row`; 0 beyond the rows.
    size_t countFor(qsizetype row) const
    {
        return row < rowCount() ? size_t(m_eventOffsets[size_t(row) + 1] - m_eventOffsets[size_t(row)]) : 0;
    }
    // Tokens the row's events carried (sum over events).
    qint64 tokensFor(qsizetype row) const
    {
        return row < rowCount() ? qint64(m_tokenOffsets[size_t(row) + 1] - m_tokenOffsets[size_t(row)]) : 0;
    }
    // Index of the row's first event among all events of the timeline.
    quint64 firstEventIndex(qsizetype row) const { return m_eventOffsets[size_t(row)]; }
    quint64 eventTotal() const { return m_eventOffsets.empty() ? 0 : m_eventOffsets.back(); }
    quint64 tokenTotal() const { return m_tokenOffsets.empty() ? 0 : m_tokenOffsets.back(); }

    qint64 firstTime(qsizetype row) const { return countFor(row) ? m_first[size_t(row)] : kNoTime; }

    // Calls f(const Event &) for each event of `row`, in stored order.
    template<typename F> void forEachEvent(qsizetype row, F &&f) const
    {
        const size_t n = countFor(row);
        if (n == 0)
            return;
        const quint8 *p = m_bytes.data() + m_byteOffsets[size_t(row)];
        const qint64 first = m_first[size_t(row)];
        Event event{first, 1, true};
        for (size_t i = 0; i < n; ++i) {
            const quint64 v = readVarint(p);
            const qint64 gap = qint64(v >> 2);
            event.segmentStart = (v & 1) != 0;
            event.time = event.segmentStart ? first + gap : event.time + gap;
            event.tokens = (v & 2) ? qint32(readVarint(p)) + 2 : 1;
            f(event);
        }
    }

    std::vector<Event> events(qsizetype row) const;
    std::vector<qint64> times(qsizetype row) const; // event times, in stored order

    // Building ------------------------------------------------------------
    // Rows are appended in RequestTable row order. An event's time must not
    // be before the previous event of its segment, and a segment must not
    // start before the row's first event; appendRow() returns false (and
    // appends nothing) when they are.
    bool appendRow(std::span<const Event> events);
    // One token per time; equal neighbouring times become one event.
    bool appendRow(std::span<const qint64> times);
    void appendEmptyRow();
    // Copies row `row` of `other` as the next row (a merge of loader chunks).
    void appendRowFrom(const TokenTimeline &other, qsizetype row);
    // Appends every row of `other` (a merge where the chunk's rows all stay).
    void appendAllFrom(const TokenTimeline &other);
    // The same, taking over `other`'s memory when this timeline has no rows yet.
    void appendAllFrom(TokenTimeline &&other);
    // Empty rows up to `rows` rows in total.
    void padTo(qsizetype rows);
    void reserve(qsizetype rows, qint64 events);
    void squeeze();

    size_t memoryBytes() const
    {
        return m_bytes.capacity()
            + (m_byteOffsets.capacity() + m_eventOffsets.capacity() + m_tokenOffsets.capacity()) * sizeof(quint64)
            + m_first.capacity() * sizeof(qint64);
    }
    size_t encodedBytes() const { return m_bytes.size(); }

    static quint64 readVarint(const quint8 *&p)
    {
        quint64 value = *p & 0x7f;
        int shift = 7;
        while (*p++ & 0x80) {
            value |= quint64(*p & 0x7f) << shift;
            shift += 7;
        }
        return value;
    }

private:
    void ensureStarted();

    ByteBuffer m_bytes;
    std::vector<quint64> m_byteOffsets;  // rows + 1
    std::vector<quint64> m_eventOffsets; // rows + 1
    std::vector<quint64> m_tokenOffsets; // rows + 1
    std::vector<qint64> m_first;         // rows
};
