#include "OrphanAdoption.h"

#include <algorithm>

namespace OrphanAdoption {

namespace {

// Candidate spans examined per trace before giving up: far beyond any real
// trace, small enough that a hostile file cannot stall a load.
constexpr qint64 kWorkBudget = 50'000'000;

} // namespace

std::vector<Adoption> adopt(SpanTable &table, qsizetype first, qsizetype last, bool *truncated)
{
    std::vector<Adoption> adoptions;
    const auto n = qint32(last - first);
    std::vector<qint32> orphans;
    for (qint32 i = 0; i < n; ++i) {
        if ((table.flags(first + i) & SpanTable::Orphan) && table.parent(first + i) < 0)
            orphans.push_back(i);
    }
    if (orphans.empty())
        return adoptions;

    // Children lists (local indices) and the spans hanging from a real root.
    std::vector<qint32> childBegin(size_t(n) + 1, 0);
    for (qint32 i = 0; i < n; ++i) {
        if (const qint32 parent = table.parent(first + i); parent >= 0)
            ++childBegin[size_t(parent - first) + 1];
    }
    for (size_t i = 1; i < childBegin.size(); ++i)
        childBegin[i] += childBegin[i - 1];
    std::vector<qint32> children(size_t(childBegin.back()));
    {
        std::vector<qint32> fill(childBegin.begin(), childBegin.end() - 1);
        for (qint32 i = 0; i < n; ++i) {
            if (const qint32 parent = table.parent(first + i); parent >= 0)
                children[size_t(fill[size_t(parent - first)]++)] = i;
        }
    }
    std::vector<quint8> attached(size_t(n), 0);
    std::vector<qint32> stack;
    const auto attachSubtree = [&](qint32 top) {
        stack.push_back(top);
        while (!stack.empty()) {
            const qint32 span = stack.back();
            stack.pop_back();
            attached[size_t(span)] = 1;
            for (qint32 c = childBegin[size_t(span)]; c < childBegin[size_t(span) + 1]; ++c)
                stack.push_back(children[size_t(c)]);
        }
    };
    bool anyRoot = false;
    for (qint32 i = 0; i < n; ++i) {
        if (table.parent(first + i) < 0 && !(table.flags(first + i) & SpanTable::Orphan)) {
            attachSubtree(i);
            anyRoot = true;
        }
    }
    if (!anyRoot)
        return adoptions;

    const auto start = [&](qint32 i) { return table.start(first + i); };
    const auto end = [&](qint32 i) { return table.end(first + i); };
    std::vector<qint32> byStart(static_cast<size_t>(n));
    for (qint32 i = 0; i < n; ++i)
        byStart[size_t(i)] = i;
    std::sort(byStart.begin(), byStart.end(),
              [&](qint32 a, qint32 b) { return std::pair(start(a), a) < std::pair(start(b), b); });
    std::sort(orphans.begin(), orphans.end(), [&](qint32 a, qint32 b) {
        return std::tuple(-(end(a) - start(a)), start(a), a) < std::tuple(-(end(b) - start(b)), start(b), b);
    });

    qint64 work = 0;
    for (const qint32 orphan : orphans) {
        // Walk back from the last span starting no later than the orphan. An
        // enclosing span that starts at s lasts at least end(orphan) - s, so
        // once that exceeds the best found no earlier span can beat it.
        auto at = std::upper_bound(byStart.begin(), byStart.end(), orphan, [&](qint32 o, qint32 c) {
            return start(o) < start(c) || (start(o) == start(c) && o < c);
        });
        // Spans starting at the same time but later in row order also qualify.
        while (at != byStart.end() && start(*at) == start(orphan))
            ++at;
        qint32 best = -1;
        qint64 bestLength = 0;
        for (auto it = at; it != byStart.begin();) {
            const qint32 candidate = *--it;
            if (best >= 0 && end(orphan) - start(candidate) >= bestLength)
                break;
            if (++work > kWorkBudget) {
                *truncated = true;
                return adoptions;
            }
            if (candidate == orphan || !attached[size_t(candidate)] || end(candidate) < end(orphan))
                continue;
            const qint64 length = end(candidate) - start(candidate);
            if (best < 0 || length < bestLength) {
                best = candidate;
                bestLength = length;
            }
        }
        if (best < 0)
            continue;
        table.setParent(first + orphan, qint32(first + best));
        table.addFlags(first + orphan, SpanTable::Adopted);
        attachSubtree(orphan);
        adoptions.push_back({qint32(first + orphan), qint32(first + best)});
    }
    return adoptions;
}

} // namespace OrphanAdoption
