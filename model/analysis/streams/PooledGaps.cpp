#include "PooledGaps.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace PooledGapStats {

namespace {

// Log-linear buckets: values below 512 ns one each, then 256 buckets per
// octave, so a bucket is at most 1/256 (0.4%) of its values wide.
constexpr int kLinear = 512;
constexpr int kPerOctave = 256;
constexpr int kBuckets = kLinear + 55 * kPerOctave;

inline int bucketOf(quint64 gap)
{
    if (gap < quint64(kLinear))
        return int(gap);
    const int bits = 64 - __builtin_clzll(gap);
    const int shift = bits - 9;
    return kLinear + (shift - 1) * kPerOctave + int((gap >> shift) - kPerOctave);
}

inline quint64 bucketLow(int key)
{
    if (key < kLinear)
        return quint64(key);
    const int shift = (key - kLinear) / kPerOctave + 1;
    return quint64((key - kLinear) % kPerOctave + kPerOctave) << shift;
}

inline quint64 bucketWidth(int key)
{
    return key < kLinear ? 1 : quint64(1) << ((key - kLinear) / kPerOctave + 1);
}

// Rows split into `parts` contiguous pieces of about equal event counts.
std::vector<std::pair<qsizetype, qsizetype>> splitRows(const TokenTimeline &timeline, const RowSet *scope, int parts)
{
    const qsizetype n = scope ? scope->size() : timeline.rowCount();
    const auto rowAt = [&](qsizetype i) { return scope ? qsizetype(scope->at(i)) : i; };
    std::vector<std::pair<qsizetype, qsizetype>> ranges;
    if (scope) {
        for (int p = 0; p < parts; ++p)
            ranges.emplace_back(n * p / parts, n * (p + 1) / parts);
        return ranges;
    }
    const quint64 total = timeline.eventTotal();
    qsizetype begin = 0;
    for (int p = 1; p <= parts; ++p) {
        qsizetype end = n;
        if (p < parts) {
            const quint64 target = total * quint64(p) / quint64(parts);
            qsizetype lo = begin;
            qsizetype hi = n;
            while (lo < hi) { // first row whose events start at or after the target
                const qsizetype mid = (lo + hi) / 2;
                if (timeline.firstEventIndex(rowAt(mid)) < target)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            end = lo;
        }
        ranges.emplace_back(begin, end);
        begin = end;
    }
    return ranges;
}

// Runs visit(part, row) over the rows on `threads` threads.
template<typename Visit> void forRows(const TokenTimeline &timeline, const RowSet *scope, int threads, Visit visit)
{
    const auto ranges = splitRows(timeline, scope, threads);
    const auto run = [&](int part) {
        const auto [begin, end] = ranges[size_t(part)];
        for (qsizetype i = begin; i < end; ++i)
            visit(part, scope ? qsizetype(scope->at(i)) : i);
    };
    std::vector<std::thread> workers;
    for (int part = 1; part < threads; ++part)
        workers.emplace_back(run, part);
    run(0);
    for (auto &worker : workers)
        worker.join();
}

template<typename F> inline void forEachGap(const TokenTimeline &timeline, qsizetype row, F &&f)
{
    qint64 previous = 0;
    timeline.forEachEvent(row, [&](const TokenTimeline::Event &event) {
        if (!event.segmentStart)
            f(quint64(event.time - previous));
        previous = event.time;
    });
}

inline int groupOf(qsizetype row)
{
    return int((quint64(row) * 0x9E3779B97F4A7C15ull >> 32) % quint64(kGroups));
}

struct PassOne
{
    std::vector<qint64> histogram; // kGroups x kBuckets
    qint64 requests = 0;
    double sum = 0.0;
    quint64 max = 0;
};

// Values (ns) whose ranks are wanted lie in cells [lo, lo + width).
struct Cell
{
    quint64 lo = 0;
    quint64 width = 1;
    qint64 before = 0; // gaps below lo
    qint64 count = 0;
};

// The group's q-quantile read from its histogram, interpolated within the
// bucket: precise to the bucket's 0.4%, which is plenty for an interval.
double groupQuantileNs(const qint64 *histogram, qint64 n, double q)
{
    const double rank = double(n - 1) * q;
    qint64 before = 0;
    for (int key = 0; key < kBuckets; ++key) {
        const qint64 count = histogram[key];
        if (count > 0 && double(before + count) > rank) {
            const double within = (rank - double(before) + 0.5) / double(count);
            return double(bucketLow(key)) + double(bucketWidth(key)) * std::clamp(within, 0.0, 1.0);
        }
        before += count;
    }
    return std::nan("");
}

} // namespace

PooledGaps compute(const TokenTimeline &timeline, StreamSide side, const RowSet *scope, std::span<const double> qs,
                   int threads, qint64 collectCap)
{
    PooledGaps result;
    result.side = side;
    for (const double q : qs)
        result.quantiles.push_back({q});
    if (timeline.isEmpty())
        return result;
    if (threads <= 0)
        threads = qMax(1, int(std::thread::hardware_concurrency()));
    const qsizetype rows = scope ? scope->size() : timeline.rowCount();
    threads = int(qMin<qsizetype>(threads, qMax<qsizetype>(1, rows / 64)));

    // Pass 1: per-group histograms, count, sum, max.
    std::vector<PassOne> parts(static_cast<size_t>(threads));
    for (auto &part : parts)
        part.histogram.assign(size_t(kGroups) * kBuckets, 0);
    forRows(timeline, scope, threads, [&](int p, qsizetype row) {
        PassOne &part = parts[size_t(p)];
        qint64 *histogram = part.histogram.data() + size_t(groupOf(row)) * kBuckets;
        // Locals, so the histogram's stores cannot force them through memory
        // (the same additions in the same order as on `part`).
        double sum = part.sum;
        quint64 max = part.max;
        bool any = false;
        forEachGap(timeline, row, [&](quint64 gap) {
            ++histogram[bucketOf(gap)];
            sum += double(gap);
            max = std::max(max, gap);
            any = true;
        });
        part.sum = sum;
        part.max = max;
        part.requests += any ? 1 : 0;
    });
    std::vector<qint64> groups(size_t(kGroups) * kBuckets, 0);
    std::vector<qint64> total(kBuckets, 0);
    double sum = 0.0;
    quint64 max = 0;
    for (const auto &part : parts) {
        for (size_t i = 0; i < groups.size(); ++i)
            groups[i] += part.histogram[i];
        result.requests += part.requests;
        sum += part.sum;
        max = std::max(max, part.max);
    }
    parts.clear();
    for (int g = 0; g < kGroups; ++g) {
        for (int key = 0; key < kBuckets; ++key)
            total[size_t(key)] += groups[size_t(g) * kBuckets + size_t(key)];
    }
    qint64 n = 0;
    for (const qint64 count : total)
        n += count;
    result.gaps = n;
    if (n == 0)
        return result;
    result.meanMs = sum / double(n) / 1e6;
    result.maxMs = double(max) / 1e6;

    // The ranks the seed's interpolation needs: floor((n-1)q) and the next.
    std::vector<qint64> ranks;
    for (const double q : qs) {
        const double rank = double(n - 1) * q;
        const auto lo = qint64(std::floor(rank));
        ranks.push_back(lo);
        ranks.push_back(qMin(lo + 1, n - 1));
    }
    std::vector<quint64> rankValue(ranks.size(), 0);
    std::vector<bool> resolved(ranks.size(), false);
    std::vector<Cell> cellOfRank(ranks.size());
    {
        qint64 before = 0;
        size_t r = 0;
        std::vector<size_t> order(ranks.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ranks[a] < ranks[b]; });
        for (int key = 0; key < kBuckets && r < order.size(); ++key) {
            const qint64 count = total[size_t(key)];
            while (r < order.size() && ranks[order[r]] < before + count) {
                cellOfRank[order[r]] = {bucketLow(key), bucketWidth(key), before, count};
                ++r;
            }
            before += count;
        }
    }

    // Narrow the cells until the gaps inside them are few enough to hold.
    for (;;) {
        std::vector<Cell> cells;
        for (size_t i = 0; i < ranks.size(); ++i) {
            if (resolved[i])
                continue;
            const Cell &cell = cellOfRank[i];
            if (cell.width == 1) { // one value left: it is the answer
                rankValue[i] = cell.lo;
                resolved[i] = true;
                continue;
            }
            if (std::none_of(cells.begin(), cells.end(),
                             [&](const Cell &c) { return c.lo == cell.lo && c.width == cell.width; }))
                cells.push_back(cell);
        }
        if (cells.empty())
            break;
        qint64 held = 0;
        for (const auto &cell : cells)
            held += cell.count;
        const bool collect = held <= collectCap;
        // Which cells a level-1 bucket may hold (cells are disjoint).
        std::vector<std::vector<int>> cellsOfKey(kBuckets);
        std::vector<quint8> keyHasCell(kBuckets, 0); // small enough to stay in cache
        for (size_t c = 0; c < cells.size(); ++c) {
            cellsOfKey[size_t(bucketOf(cells[c].lo))].push_back(int(c));
            keyHasCell[size_t(bucketOf(cells[c].lo))] = 1;
        }
        const auto cellOf = [&](quint64 gap) {
            const int key = bucketOf(gap);
            if (!keyHasCell[size_t(key)])
                return -1;
            for (const int c : cellsOfKey[size_t(key)]) {
                if (gap >= cells[size_t(c)].lo && gap - cells[size_t(c)].lo < cells[size_t(c)].width)
                    return c;
            }
            return -1;
        };
        if (collect) {
            std::vector<std::vector<std::vector<quint64>>> values(size_t(threads),
                                                                  std::vector<std::vector<quint64>>(cells.size()));
            forRows(timeline, scope, threads, [&](int p, qsizetype row) {
                auto &mine = values[size_t(p)];
                forEachGap(timeline, row, [&](quint64 gap) {
                    const int c = cellOf(gap);
                    if (c >= 0)
                        mine[size_t(c)].push_back(gap);
                });
            });
            for (size_t c = 0; c < cells.size(); ++c) {
                std::vector<quint64> inside;
                inside.reserve(size_t(cells[c].count));
                for (auto &mine : values) {
                    inside.insert(inside.end(), mine[c].begin(), mine[c].end());
                    mine[c] = {};
                }
                std::sort(inside.begin(), inside.end());
                for (size_t i = 0; i < ranks.size(); ++i) {
                    const Cell &cell = cellOfRank[i];
                    if (resolved[i] || cell.lo != cells[c].lo || cell.width != cells[c].width)
                        continue;
                    const qint64 at = ranks[i] - cell.before;
                    if (at >= 0 && at < qint64(inside.size())) {
                        rankValue[i] = inside[size_t(at)];
                        resolved[i] = true;
                    }
                }
            }
            break;
        }
        // Too many to hold: split each cell into 65,536 narrower ones.
        constexpr quint64 kSplit = 65536;
        std::vector<quint64> subWidth(cells.size());
        for (size_t c = 0; c < cells.size(); ++c)
            subWidth[c] = std::max<quint64>(1, cells[c].width / kSplit);
        std::vector<std::vector<qint64>> counts(size_t(threads), std::vector<qint64>(cells.size() * kSplit, 0));
        forRows(timeline, scope, threads, [&](int p, qsizetype row) {
            qint64 *mine = counts[size_t(p)].data();
            forEachGap(timeline, row, [&](quint64 gap) {
                const int c = cellOf(gap);
                if (c >= 0)
                    ++mine[size_t(c) * kSplit + (gap - cells[size_t(c)].lo) / subWidth[size_t(c)]];
            });
        });
        for (size_t p = 1; p < counts.size(); ++p) {
            for (size_t i = 0; i < counts[0].size(); ++i)
                counts[0][i] += counts[p][i];
        }
        for (size_t i = 0; i < ranks.size(); ++i) {
            if (resolved[i])
                continue;
            Cell &cell = cellOfRank[i];
            const auto c = size_t(std::find_if(cells.begin(), cells.end(),
                                               [&](const Cell &x) { return x.lo == cell.lo && x.width == cell.width; })
                                  - cells.begin());
            qint64 before = cell.before;
            for (quint64 s = 0; s < kSplit; ++s) {
                const qint64 count = counts[0][c * kSplit + s];
                if (ranks[i] < before + count) {
                    cell = {cells[c].lo + s * subWidth[c], subWidth[c], before, count};
                    break;
                }
                before += count;
            }
        }
    }

    // Values, and the intervals from random groups of requests.
    std::vector<qint64> groupN(kGroups, 0);
    for (int g = 0; g < kGroups; ++g) {
        for (int key = 0; key < kBuckets; ++key)
            groupN[size_t(g)] += groups[size_t(g) * kBuckets + size_t(key)];
    }
    const bool enoughRequests = result.requests >= qint64{2} * kGroups;
    for (size_t i = 0; i < result.quantiles.size(); ++i) {
        PooledQuantile &quantile = result.quantiles[i];
        const double rank = double(n - 1) * quantile.q;
        const double lo = double(rankValue[2 * i]);
        const double hi = double(rankValue[2 * i + 1]);
        quantile.valueMs = (lo + (hi - lo) * (rank - std::floor(rank))) / 1e6;
        const double minimumPerGroup = 5.0 / std::max(1e-9, std::min(quantile.q, 1.0 - quantile.q));
        if (!enoughRequests
            || std::any_of(groupN.begin(), groupN.end(), [&](qint64 count) { return double(count) < minimumPerGroup; }))
            continue;
        double mean = 0.0;
        std::vector<double> values(kGroups);
        for (int g = 0; g < kGroups; ++g) {
            values[size_t(g)] = groupQuantileNs(groups.data() + size_t(g) * kBuckets, groupN[size_t(g)], quantile.q);
            mean += values[size_t(g)] / kGroups;
        }
        double squares = 0.0;
        for (const double value : values)
            squares += (value - mean) * (value - mean);
        constexpr double kT19 = 2.093; // Student's t, 19 degrees of freedom, 97.5%
        const double half = kT19 * std::sqrt(squares / (kGroups - 1)) / std::sqrt(double(kGroups)) / 1e6;
        quantile.intervalFormed = true;
        quantile.lowerMs = std::max(0.0, quantile.valueMs - half);
        quantile.upperMs = quantile.valueMs + half;
        result.groups = kGroups;
    }
    return result;
}

} // namespace PooledGapStats
