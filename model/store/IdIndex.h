#pragma once

#include <QtGlobal>

#include <cstring>
#include <string_view>
#include <vector>

// Finds rows by their string id: an open-addressing table of row numbers with
// a 32-bit hash tag each, so a million ids cost 16 MiB and almost every probe
// is one cache line and no string compare. Ids themselves stay where they
// live (a StringArena); `idOf(row)` fetches one for the rare full compare.
class IdIndex
{
public:
    static constexpr qint64 kNotFound = -1;

    void reserve(qsizetype count)
    {
        size_t capacity = 16;
        while (capacity < size_t(count) * 2)
            capacity *= 2;
        m_slots.assign(capacity, 0);
        m_mask = capacity - 1;
        m_size = 0;
    }

    // Returns the row already holding `id`, or inserts `row` and returns kNotFound.
    template<typename IdOf> qint64 findOrInsert(std::string_view id, quint32 row, IdOf &&idOf)
    {
        return findOrInsertHashed(id, hashOf(id), row, idOf);
    }

    // The same with `hash` == hashOf(id) already computed.
    template<typename IdOf> qint64 findOrInsertHashed(std::string_view id, quint64 hash, quint32 row, IdOf &&idOf)
    {
        if (m_slots.empty() || (m_size + 1) * 2 > m_slots.size())
            grow(idOf);
        const auto tag = quint32(hash >> 32);
        for (size_t slot = hash & m_mask;; slot = (slot + 1) & m_mask) {
            const quint64 entry = m_slots[slot];
            if (entry == 0) {
                m_slots[slot] = (quint64(tag) << 32) | (quint64(row) + 1);
                ++m_size;
                return kNotFound;
            }
            const auto existing = quint32(entry & 0xffffffffu) - 1;
            if (quint32(entry >> 32) == tag && idOf(existing) == id)
                return existing;
        }
    }

    // The row holding `id`, or kNotFound.
    template<typename IdOf> qint64 find(std::string_view id, IdOf &&idOf) const
    {
        if (m_slots.empty())
            return kNotFound;
        const quint64 hash = hashOf(id);
        const auto tag = quint32(hash >> 32);
        for (size_t slot = hash & m_mask;; slot = (slot + 1) & m_mask) {
            const quint64 entry = m_slots[slot];
            if (entry == 0)
                return kNotFound;
            const auto existing = quint32(entry & 0xffffffffu) - 1;
            if (quint32(entry >> 32) == tag && idOf(existing) == id)
                return existing;
        }
    }

    size_t memoryBytes() const { return m_slots.capacity() * sizeof(quint64); }

    static quint64 hashOf(std::string_view text)
    {
        // FNV-1a over 8-byte words, then a final avalanche (splitmix64).
        quint64 hash = 0xcbf29ce484222325ull ^ text.size();
        size_t pos = 0;
        for (; pos + 8 <= text.size(); pos += 8) {
            quint64 word = 0;
            std::memcpy(&word, text.data() + pos, 8);
            hash = (hash ^ word) * 0x100000001b3ull;
        }
        quint64 tail = 0;
        std::memcpy(&tail, text.data() + pos, text.size() - pos);
        hash = (hash ^ tail) * 0x100000001b3ull;
        hash ^= hash >> 30;
        hash *= 0xbf58476d1ce4e5b9ull;
        hash ^= hash >> 27;
        hash *= 0x94d049bb133111ebull;
        return hash ^ (hash >> 31);
    }

private:
    template<typename IdOf> void grow(IdOf &&idOf)
    {
        std::vector<quint64> old;
        old.swap(m_slots);
        reserve(qsizetype(qMax<size_t>(16, old.size())));
        for (const quint64 entry : old) {
            if (entry == 0)
                continue;
            const auto row = quint32(entry & 0xffffffffu) - 1;
            const quint64 hash = hashOf(idOf(row));
            size_t slot = hash & m_mask;
            while (m_slots[slot] != 0)
                slot = (slot + 1) & m_mask;
            m_slots[slot] = entry;
            ++m_size;
        }
    }

    std::vector<quint64> m_slots;
    size_t m_mask = 0;
    size_t m_size = 0;
};
