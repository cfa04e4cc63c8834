#include "TokenTimeline.h"

namespace {

// Gaps are shifted left by two flag bits, so they must stay below 2^62 ns
// (146 years); anything longer is a broken clock, refused by the caller.
constexpr quint64 kMaxGap = quint64(1) << 61;

} // namespace

std::vector<TokenTimeline::Event> TokenTimeline::events(qsizetype row) const
{
    std::vector<Event> result;
    result.reserve(countFor(row));
    forEachEvent(row, [&result](const Event &event) { result.push_back(event); });
    return result;
}

std::vector<qint64> TokenTimeline::times(qsizetype row) const
{
    std::vector<qint64> result;
    result.reserve(countFor(row));
    forEachEvent(row, [&result](const Event &event) { result.push_back(event.time); });
    return result;
}

void TokenTimeline::ensureStarted()
{
    if (m_eventOffsets.empty()) {
        m_byteOffsets.push_back(0);
        m_eventOffsets.push_back(0);
        m_tokenOffsets.push_back(0);
    }
}

void TokenTimeline::writeVarint(quint64 value)
{
    while (value >= 0x80) {
        m_bytes.push_back(quint8(value | 0x80));
        value >>= 7;
    }
    m_bytes.push_back(quint8(value));
}

bool TokenTimeline::appendRow(std::span<const Event> events)
{
    ensureStarted();
    // Check the whole row first, so a refused row leaves nothing behind.
    const qint64 first = events.empty() ? 0 : events.front().time;
    qint64 previous = first;
    for (size_t i = 0; i < events.size(); ++i) {
        const Event &event = events[i];
        const bool segmentStart = i == 0 || event.segmentStart;
        const qint64 from = segmentStart ? first : previous;
        if (event.time < from || quint64(event.time - from) >= kMaxGap || event.tokens < 1)
            return false;
        previous = event.time;
    }
    qint64 tokens = 0;
    previous = first;
    for (size_t i = 0; i < events.size(); ++i) {
        const Event &event = events[i];
        const bool segmentStart = i == 0 || event.segmentStart;
        const quint64 gap = quint64(event.time - (segmentStart ? first : previous));
        writeVarint(gap << 2 | (event.tokens > 1 ? 2u : 0u) | (segmentStart ? 1u : 0u));
        if (event.tokens > 1)
            writeVarint(quint64(event.tokens - 2));
        tokens += event.tokens;
        previous = event.time;
    }
    m_first.push_back(events.empty() ? kNoTime : first);
    m_byteOffsets.push_back(m_bytes.size());
    m_eventOffsets.push_back(m_eventOffsets.back() + events.size());
    m_tokenOffsets.push_back(m_tokenOffsets.back() + quint64(tokens));
    return true;
}

bool TokenTimeline::appendRow(std::span<const qint64> times)
{
    ensureStarted();
    for (size_t i = 1; i < times.size(); ++i) {
        if (times[i] < times[i - 1] || quint64(times[i] - times[i - 1]) >= kMaxGap)
            return false;
    }
    const qint64 first = times.empty() ? 0 : times.front();
    size_t events = 0;
    for (size_t i = 0; i < times.size();) {
        size_t same = i + 1;
        while (same < times.size() && times[same] == times[i])
            ++same;
        const qint32 tokens = qint32(same - i);
        const quint64 gap = quint64(times[i] - (i == 0 ? first : times[i - 1]));
        writeVarint(gap << 2 | (tokens > 1 ? 2u : 0u) | (i == 0 ? 1u : 0u));
        if (tokens > 1)
            writeVarint(quint64(tokens - 2));
        ++events;
        i = same;
    }
    m_first.push_back(times.empty() ? kNoTime : first);
    m_byteOffsets.push_back(m_bytes.size());
    m_eventOffsets.push_back(m_eventOffsets.back() + events);
    m_tokenOffsets.push_back(m_tokenOffsets.back() + times.size());
    return true;
}

void TokenTimeline::appendEmptyRow()
{
    ensureStarted();
    m_first.push_back(kNoTime);
    m_byteOffsets.push_back(m_bytes.size());
    m_eventOffsets.push_back(m_eventOffsets.back());
    m_tokenOffsets.push_back(m_tokenOffsets.back());
}

void TokenTimeline::appendRowFrom(const TokenTimeline &other, qsizetype row)
{
    ensureStarted();
    if (row >= other.rowCount()) {
        appendEmptyRow();
        return;
    }
    const auto r = size_t(row);
    m_bytes.insert(m_bytes.end(), other.m_bytes.begin() + qint64(other.m_byteOffsets[r]),
                   other.m_bytes.begin() + qint64(other.m_byteOffsets[r + 1]));
    m_first.push_back(other.m_first[r]);
    m_byteOffsets.push_back(m_bytes.size());
    m_eventOffsets.push_back(m_eventOffsets.back() + (other.m_eventOffsets[r + 1] - other.m_eventOffsets[r]));
    m_tokenOffsets.push_back(m_tokenOffsets.back() + (other.m_tokenOffsets[r + 1] - other.m_tokenOffsets[r]));
}

void TokenTimeline::padTo(qsizetype rows)
{
    while (rowCount() < rows)
        appendEmptyRow();
}

void TokenTimeline::reserve(qsizetype rows, qint64 events)
{
    m_bytes.reserve(size_t(events) * 4);
    m_byteOffsets.reserve(size_t(rows) + 1);
    m_eventOffsets.reserve(size_t(rows) + 1);
    m_tokenOffsets.reserve(size_t(rows) + 1);
    m_first.reserve(size_t(rows));
}

void TokenTimeline::reserveMore(qsizetype rows, quint64 bytes)
{
    const size_t offsets = m_eventOffsets.empty() ? size_t(rows) + 1 : m_eventOffsets.size() + size_t(rows);
    m_bytes.reserve(m_bytes.size() + bytes);
    m_byteOffsets.reserve(offsets);
    m_eventOffsets.reserve(offsets);
    m_tokenOffsets.reserve(offsets);
    m_first.reserve(m_first.size() + size_t(rows));
}

void TokenTimeline::squeeze()
{
    m_bytes.shrink_to_fit();
    m_byteOffsets.shrink_to_fit();
    m_eventOffsets.shrink_to_fit();
    m_tokenOffsets.shrink_to_fit();
    m_first.shrink_to_fit();
}
