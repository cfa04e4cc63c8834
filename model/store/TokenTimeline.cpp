#include "TokenTimeline.h"

namespace {

// Gaps are shifted left by two flag bits, so they must stay below 2^62 ns
// (146 years); anything longer is a broken clock, refused by the caller.
constexpr quint64 kMaxGap = quint64(1) << 61;

// Varints written into a block on the stack and appended to the bytes a
// block at a time: one bounds check per block instead of one per byte.
class VarintBlock
{
public:
    explicit VarintBlock(ByteBuffer &out)
        : m_out(out)
    { }
    ~VarintBlock() { flush(); }
    VarintBlock(const VarintBlock &) = delete;
    VarintBlock &operator=(const VarintBlock &) = delete;

    void put(quint64 value)
    {
        if (m_size > sizeof m_block - kMaxVarint)
            flush();
        while (value >= 0x80) {
            m_block[m_size++] = quint8(value | 0x80);
            value >>= 7;
        }
        m_block[m_size++] = quint8(value);
    }
    void flush()
    {
        m_out.append(m_block, m_size);
        m_size = 0;
    }

private:
    static constexpr size_t kMaxVarint = 10;
    ByteBuffer &m_out;
    quint8 m_block[512];
    size_t m_size = 0;
};

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
    VarintBlock out(m_bytes);
    for (size_t i = 0; i < events.size(); ++i) {
        const Event &event = events[i];
        const bool segmentStart = i == 0 || event.segmentStart;
        const quint64 gap = quint64(event.time - (segmentStart ? first : previous));
        out.put(gap << 2 | (event.tokens > 1 ? 2u : 0u) | (segmentStart ? 1u : 0u));
        if (event.tokens > 1)
            out.put(quint64(event.tokens - 2));
        tokens += event.tokens;
        previous = event.time;
    }
    out.flush();
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
    VarintBlock out(m_bytes);
    for (size_t i = 0; i < times.size();) {
        size_t same = i + 1;
        while (same < times.size() && times[same] == times[i])
            ++same;
        const qint32 tokens = qint32(same - i);
        const quint64 gap = quint64(times[i] - (i == 0 ? first : times[i - 1]));
        out.put(gap << 2 | (tokens > 1 ? 2u : 0u) | (i == 0 ? 1u : 0u));
        if (tokens > 1)
            out.put(quint64(tokens - 2));
        ++events;
        i = same;
    }
    out.flush();
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
    m_bytes.append(other.m_bytes.data() + other.m_byteOffsets[r], other.m_byteOffsets[r + 1] - other.m_byteOffsets[r]);
    m_first.push_back(other.m_first[r]);
    m_byteOffsets.push_back(m_bytes.size());
    m_eventOffsets.push_back(m_eventOffsets.back() + (other.m_eventOffsets[r + 1] - other.m_eventOffsets[r]));
    m_tokenOffsets.push_back(m_tokenOffsets.back() + (other.m_tokenOffsets[r + 1] - other.m_tokenOffsets[r]));
}

void TokenTimeline::appendAllFrom(const TokenTimeline &other)
{
    ensureStarted();
    if (other.rowCount() == 0)
        return;
    const quint64 bytes = m_bytes.size();
    const quint64 events = m_eventOffsets.back();
    const quint64 tokens = m_tokenOffsets.back();
    m_bytes.append(other.m_bytes.data(), other.m_bytes.size());
    m_first.insert(m_first.end(), other.m_first.begin(), other.m_first.end());
    for (size_t r = 1; r < other.m_eventOffsets.size(); ++r) {
        m_byteOffsets.push_back(bytes + other.m_byteOffsets[r]);
        m_eventOffsets.push_back(events + other.m_eventOffsets[r]);
        m_tokenOffsets.push_back(tokens + other.m_tokenOffsets[r]);
    }
}

void TokenTimeline::appendAllFrom(TokenTimeline &&other)
{
    if (rowCount() == 0)
        *this = std::move(other);
    else
        appendAllFrom(other);
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

void TokenTimeline::squeeze()
{
    m_bytes.shrinkToFit();
    m_byteOffsets.shrink_to_fit();
    m_eventOffsets.shrink_to_fit();
    m_tokenOffsets.shrink_to_fit();
    m_first.shrink_to_fit();
}
