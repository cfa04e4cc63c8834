#pragma once

#include "ColumnMemory.h"

#include <QtGlobal>

#include <string_view>
#include <vector>

// Append-only storage for many short strings (request ids, span ids): one byte
// buffer plus end offsets, so a million ids cost one allocation each, not a
// million.
class StringArena
{
public:
    quint32 append(std::string_view text)
    {
        m_bytes.insert(m_bytes.end(), text.begin(), text.end());
        m_ends.push_back(m_bytes.size());
        return static_cast<quint32>(m_ends.size() - 1);
    }

    // Appends every string of `other`, in order.
    void appendAll(const StringArena &other)
    {
        const size_t base = m_bytes.size();
        m_bytes.insert(m_bytes.end(), other.m_bytes.begin(), other.m_bytes.end());
        m_ends.reserve(m_ends.size() + other.m_ends.size());
        for (const size_t end : other.m_ends)
            m_ends.push_back(base + end);
    }

    std::string_view view(qsizetype index) const
    {
        const auto begin = index == 0 ? 0 : m_ends[static_cast<size_t>(index) - 1];
        const auto end = m_ends[static_cast<size_t>(index)];
        return {m_bytes.data() + begin, end - begin};
    }

    qsizetype size() const { return static_cast<qsizetype>(m_ends.size()); }
    size_t byteSize() const { return m_bytes.size(); }
    bool isEmpty() const { return m_ends.empty(); }

    void reserve(qsizetype count, qsizetype bytes)
    {
        m_ends.reserve(static_cast<size_t>(count));
        m_bytes.reserve(static_cast<size_t>(bytes));
    }

    // Releases growth slack only when it is large (ColumnMemory's rule): the
    // request store after a load.
    void squeeze()
    {
        ColumnMemory::releaseSlack(m_bytes);
        ColumnMemory::releaseSlack(m_ends);
    }

    void clear()
    {
        m_bytes.clear();
        m_ends.clear();
    }

    // Capacity exactly the size, whatever the slack: tables kept for long
    // whose memory is reported (SpanTable::shrinkToFit).
    void shrinkToFit()
    {
        m_bytes.shrink_to_fit();
        m_ends.shrink_to_fit();
    }

    size_t memoryBytes() const { return m_bytes.capacity() + m_ends.capacity() * sizeof(size_t); }

private:
    ColumnVector<char> m_bytes;
    ColumnVector<size_t> m_ends;
};
