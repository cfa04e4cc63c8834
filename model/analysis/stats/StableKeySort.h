#pragma once

#include <QtGlobal>

#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <vector>

// Sorting a million request rows by a number, fast enough for the request
// table (≤ 300 ms including everything else): each number becomes a 64-bit
// key whose unsigned order is the wanted order, then an LSD radix sort,
// which is stable, so rows with equal keys keep their (ascending) order.
// Byte positions where every key agrees (the exponent bytes of similar
// durations) are skipped.
namespace StableKeySort {

struct KeyedRow
{
    quint64 key = 0;
    qint32 row = 0;
};

// Ascending or descending order of `value`; NaN (missing) sorts last either
// way, and -0 equals +0.
inline quint64 orderedKey(double value, bool descending)
{
    if (std::isnan(value))
        return ~quint64(0);
    if (value == 0.0)
        value = 0.0; // -0 and +0 tie, as they compare equal
    quint64 bits = std::bit_cast<quint64>(value);
    // Negative numbers: larger magnitude first; positive above every negative.
    bits = (bits & (quint64(1) << 63)) ? ~bits : bits | (quint64(1) << 63);
    // Keys of numbers lie in [~bits(-inf), bits(+inf)] = [0x000F..F, 0xFFF0..0],
    // so reversing them for descending keeps them below the NaN key.
    return descending ? ~bits : bits;
}

// Sorts `items` (a vector of KeyedRow, any allocator) by key, stably.
// Returns false (items in an unspecified order) if `cancelled` became true.
template<typename Rows> bool sort(Rows &items, const std::atomic<bool> *cancelled = nullptr)
{
    const size_t n = items.size();
    if (n < 2)
        return true;
    std::array<std::array<size_t, 256>, 8> counts{};
    for (const KeyedRow &item : items) {
        for (int b = 0; b < 8; ++b)
            ++counts[size_t(b)][size_t((item.key >> (8 * b)) & 0xFF)];
    }
    Rows buffer(n);
    Rows *from = &items;
    Rows *to = &buffer;
    for (int b = 0; b < 8; ++b) {
        auto &count = counts[size_t(b)];
        const quint64 firstByte = (items.front().key >> (8 * b)) & 0xFF;
        if (count[size_t(firstByte)] == n)
            continue; // every key has this byte: nothing to reorder
        if (cancelled && cancelled->load(std::memory_order_relaxed))
            return false;
        size_t offset = 0;
        for (size_t &c : count) {
            const size_t here = c;
            c = offset;
            offset += here;
        }
        for (const KeyedRow &item : *from)
            (*to)[count[size_t((item.key >> (8 * b)) & 0xFF)]++] = item;
        std::swap(from, to);
    }
    if (from != &items)
        items.swap(*from);
    return true;
}

} // namespace StableKeySort
