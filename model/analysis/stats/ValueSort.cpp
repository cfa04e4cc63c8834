#include "ValueSort.h"

#include "StableKeySort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

namespace {

// Below this a comparison sort wins: the radix sort's 8 x 256 counters and
// its buffer cost more than they save.
constexpr size_t kRadixThreshold = 2048;

void radixSort(std::vector<quint64> &keys)
{
    const size_t n = keys.size();
    std::array<std::array<size_t, 256>, 8> counts{};
    for (const quint64 key : keys) {
        for (int b = 0; b < 8; ++b)
            ++counts[size_t(b)][size_t((key >> (8 * b)) & 0xFF)];
    }
    std::vector<quint64> buffer(n);
    std::vector<quint64> *from = &keys;
    std::vector<quint64> *to = &buffer;
    for (int b = 0; b < 8; ++b) {
        auto &count = counts[size_t(b)];
        if (count[size_t((keys.front() >> (8 * b)) & 0xFF)] == n)
            continue; // every key has this byte
        size_t offset = 0;
        for (size_t &c : count) {
            const size_t here = c;
            c = offset;
            offset += here;
        }
        for (const quint64 key : *from)
            (*to)[count[size_t((key >> (8 * b)) & 0xFF)]++] = key;
        std::swap(from, to);
    }
    if (from != &keys)
        keys.swap(*from);
}

// Inverse of StableKeySort::orderedKey(value, false) for non-NaN values.
double valueOfKey(quint64 key)
{
    const quint64 bits = (key & (quint64(1) << 63)) ? key & ~(quint64(1) << 63) : ~key;
    return std::bit_cast<double>(bits);
}

} // namespace

namespace ValueSort {

void ascending(std::span<double> values)
{
    if (values.size() < kRadixThreshold) {
        std::sort(values.begin(), values.end());
        return;
    }
    std::vector<quint64> keys(values.size());
    for (size_t i = 0; i < values.size(); ++i)
        keys[i] = StableKeySort::orderedKey(values[i], false);
    radixSort(keys);
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = valueOfKey(keys[i]);
}

void ascending(std::span<qint64> values)
{
    if (values.size() < kRadixThreshold) {
        std::sort(values.begin(), values.end());
        return;
    }
    // Flipping the sign bit makes the unsigned order the signed order.
    std::vector<quint64> keys(values.size());
    for (size_t i = 0; i < values.size(); ++i)
        keys[i] = quint64(values[i]) ^ (quint64(1) << 63);
    radixSort(keys);
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = qint64(keys[i] ^ (quint64(1) << 63));
}

} // namespace ValueSort
