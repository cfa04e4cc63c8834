#include "IdRepeatCheck.h"

#include "store/IdIndex.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <numeric>
#include <thread>

namespace IdRepeatCheck {

Hashes hashIds(const RequestTable &table, size_t parts)
{
    Hashes byPart(parts);
    for (auto &hashes : byPart)
        hashes.reserve(size_t(table.rowCount()) / parts + size_t(table.rowCount()) / 16 + 16);
    for (qsizetype r = 0; r < table.rowCount(); ++r) {
        const quint64 hash = IdIndex::hashOf(table.id(r));
        byPart[size_t(((hash >> 32) * parts) >> 32)].push_back(hash);
    }
    return byPart;
}

bool hasEqualHashes(const ColumnVector<quint64> &hashes)
{
    size_t buckets = 1;
    while (buckets < (size_t{1} << 16) && buckets * 8 < hashes.size())
        buckets *= 2;
    const quint64 mask = buckets - 1;
    std::vector<size_t> starts(buckets + 1, 0);
    for (const quint64 hash : hashes)
        ++starts[(hash & mask) + 1];
    std::partial_sum(starts.begin(), starts.end(), starts.begin());
    ColumnVector<quint64> grouped(hashes.size());
    std::vector<size_t> cursor(starts.begin(), starts.end() - 1);
    for (const quint64 hash : hashes)
        grouped[cursor[hash & mask]++] = hash;
    for (size_t b = 0; b < buckets; ++b) {
        const auto first = grouped.begin() + qsizetype(starts[b]);
        const auto last = grouped.begin() + qsizetype(starts[b + 1]);
        std::sort(first, last);
        if (std::adjacent_find(first, last) != last)
            return true;
    }
    return false;
}

bool mayRepeat(std::vector<Hashes> byChunk)
{
    if (byChunk.empty())
        return false;
    const size_t parts = byChunk.front().size();
    for (const auto &chunk : byChunk) {
        if (chunk.size() != parts)
            return true; // not hashed alike: let the merge compare the ids
    }
    std::vector<char> repeats(parts, 0);
    const auto checkPart = [&](size_t part) {
        ColumnVector<quint64> hashes;
        size_t count = 0;
        for (const auto &chunk : byChunk)
            count += chunk[part].size();
        hashes.reserve(count);
        for (auto &chunk : byChunk) {
            hashes.insert(hashes.end(), chunk[part].begin(), chunk[part].end());
            chunk[part] = {};
        }
        repeats[part] = hasEqualHashes(hashes);
    };
    std::vector<std::thread> workers;
    for (size_t part = 1; part < parts; ++part)
        workers.emplace_back(checkPart, part);
    if (parts > 0)
        checkPart(0);
    for (auto &worker : workers)
        worker.join();
    return std::find(repeats.begin(), repeats.end(), 1) != repeats.end();
}

} // namespace IdRepeatCheck
