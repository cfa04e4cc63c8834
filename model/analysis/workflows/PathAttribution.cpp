#include "PathAttribution.h"

#include "PathAdvice.h"
#include "store/TraceStore.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace {

using Ns = PathGroup::Ns;

double meanMs(Ns sum, qint64 n)
{
    return n > 0 ? double(sum) / double(n) / 1e6 : 0.0;
}

qint64 saturate(Ns value)
{
    constexpr Ns top = std::numeric_limits<qint64>::max();
    constexpr Ns bottom = std::numeric_limits<qint64>::min();
    return qint64(std::clamp(value, bottom, top));
}

double medianMs(std::vector<qint64> values)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + qint64(middle), values.end());
    const qint64 upper = values[middle];
    if (values.size() % 2 == 1)
        return double(upper) / 1e6;
    const qint64 lower = *std::max_element(values.begin(), values.begin() + qint64(middle));
    return (double(lower) + double(upper)) / 2.0 / 1e6;
}

// The total a request row was ranked on: E2E, or client TTFT.
qint64 rowTotal(const RequestTable &table, qint32 row, WorkflowPaths::Target target)
{
    const qint64 send = table.stamp(row, Stamp::ClientSend);
    const qint64 end
        = table.stamp(row, target == WorkflowPaths::Target::End ? Stamp::LastTokenClient : Stamp::FirstTokenClient);
    return send == kNoTime || end == kNoTime ? -1 : end - send;
}

} // namespace

PathGroup PathGroup::gather(const TraceStore &store, const WorkflowPaths &paths, const SpanKeys &keys,
                            std::span<const qint32> rows, WorkflowPaths::Target target)
{
    PathGroup group;
    group.target = target;
    const quint32 keyCount = keys.keyCount();
    std::vector<Ns> sums(keyCount, 0);
    std::vector<qint64> onPath(keyCount, 0);
    std::vector<qint32> seenIn(keyCount, -1); // last workflow counted on the path, per key
    std::vector<qint32> baseOnPathIn(keys.baseCount(), -1);
    std::vector<qint32> basePresentIn(keys.baseCount(), -1);
    std::vector<qint64> baseLeastSlack(keys.baseCount(), WorkflowPaths::kUnbounded);
    std::vector<quint32> presentBases;
    std::vector<std::pair<quint32, qint64>> offPath; // (base key, least slack)
    for (const qint32 row : rows) {
        const qint32 w = paths.workflowOfRow(row);
        const qint64 pathTotal = w >= 0 ? paths.total(target, w) : -1;
        const qint64 total = w >= 0 ? rowTotal(store.requests, row, target) : -1;
        if (pathTotal < 0 || total < 0) {
            ++group.skipped;
            continue;
        }
        ++group.n;
        group.totalNs += total;
        group.pathNs += pathTotal;
        if (const qint32 overrunRow = paths.overrunRow(target, w); overrunRow >= 0) {
            const qint64 ns = paths.overrunNs(target, w);
            const quint32 key = keys.overrunOf(keys.keyOf(overrunRow));
            group.overrunNs += ns;
            sums[key] += ns;
            if (seenIn[key] != w) {
                seenIn[key] = w;
                ++onPath[key];
            }
        }
        for (const auto &section : paths.path(target, w)) {
            quint32 key = keys.idleKey();
            if (section.row >= 0) {
                const quint32 base = keys.keyOf(section.row);
                key = section.gap ? keys.gapOf(base) : base;
                baseOnPathIn[base] = w;
            }
            sums[key] += section.ns;
            if (seenIn[key] != w) {
                seenIn[key] = w;
                ++onPath[key];
            }
        }
        // Keys present but off the path: the least slack of their spans.
        presentBases.clear();
        const qint32 first = store.workflows.firstSpan[size_t(w)];
        const qint32 count = store.workflows.spanCount[size_t(w)];
        for (qint32 span = first; span < first + count; ++span) {
            const quint32 base = keys.keyOf(span);
            if (basePresentIn[base] != w) {
                basePresentIn[base] = w;
                baseLeastSlack[base] = WorkflowPaths::kUnbounded;
                presentBases.push_back(base);
            }
            baseLeastSlack[base] = std::min(baseLeastSlack[base], paths.slack(target, span));
        }
        for (const quint32 base : presentBases) {
            if (baseOnPathIn[base] != w && baseLeastSlack[base] != WorkflowPaths::kUnbounded)
                offPath.emplace_back(base, baseLeastSlack[base]);
        }
    }
    std::vector<std::vector<qint64>> slackOf(static_cast<size_t>(keys.baseCount()));
    for (const auto &[base, slack] : offPath)
        slackOf[base].push_back(slack);
    for (quint32 key = 0; key < keyCount; ++key) {
        const bool idle = key == keys.idleKey();
        const bool gap = keys.isGap(key);
        const bool overrun = keys.isOverrun(key);
        const bool presentOffPath = !idle && !gap && !overrun && !slackOf[key].empty();
        if (onPath[key] == 0 && !presentOffPath)
            continue;
        Entry entry;
        entry.key = keys.text(key);
        entry.gap = gap;
        entry.overrun = overrun;
        entry.idle = idle;
        entry.category = keys.category(key);
        entry.sumNs = sums[key];
        entry.onPath = onPath[key];
        // Slack belongs to the spans of a key, shown on its work row.
        if (presentOffPath)
            entry.offPathSlack = std::move(slackOf[key]);
        group.entries.push_back(std::move(entry));
    }
    return group;
}

const PathKeyContribution *PathAttribution::largestSaving() const
{
    return !keys.empty() && keys.back().differenceMs < 0.0 ? &keys.back() : nullptr;
}

double PathAttribution::sumOfContributions() const
{
    double sum = outsideDifferenceMs;
    for (const auto &key : keys)
        sum += key.differenceMs;
    return sum;
}

QString PathAttribution::label(const PathKeyContribution &key) const
{
    if (key.overrun)
        return key.key + QStringLiteral(" (past its parent's end)");
    if (key.idle || !key.gap)
        return key.key;
    return keyKind == SpanKeyKind::Kind ? key.key + QStringLiteral(" coordination gap")
                                        : key.key + QStringLiteral(" (coordination gap)");
}

const PathKeyContribution *PathAttribution::find(const QString &key, bool gap, bool overrun) const
{
    for (const auto &contribution : keys) {
        if (contribution.key == key && contribution.gap == gap && contribution.overrun == overrun)
            return &contribution;
    }
    return nullptr;
}

QString PathAttribution::targetLabel(WorkflowPaths::Target target)
{
    return target == WorkflowPaths::Target::End ? QStringLiteral("E2E") : QStringLiteral("TTFT");
}

PathAttribution PathAttribution::compare(const PathGroup &set, const PathGroup &rest, SpanKeyKind keyKind)
{
    PathAttribution result;
    result.target = set.target;
    result.keyKind = keyKind;
    result.setN = set.n;
    result.restN = rest.n;
    result.setSkipped = set.skipped;
    result.restSkipped = rest.skipped;
    if (set.n == 0 || rest.n == 0)
        return result;
    result.setMeanMs = meanMs(set.totalNs, set.n);
    result.restMeanMs = meanMs(rest.totalNs, rest.n);
    result.differenceMs = result.setMeanMs - result.restMeanMs;
    result.outsideSetMeanMs = meanMs(set.totalNs - set.pathNs - set.overrunNs, set.n);
    result.outsideRestMeanMs = meanMs(rest.totalNs - rest.pathNs - rest.overrunNs, rest.n);
    result.outsideDifferenceMs = result.outsideSetMeanMs - result.outsideRestMeanMs;

    // Join the two groups by (idle, gap, overrun, key text).
    std::map<std::tuple<bool, bool, bool, QString>, std::pair<const PathGroup::Entry *, const PathGroup::Entry *>>
        joined;
    for (const auto &entry : set.entries)
        joined[{entry.idle, entry.gap, entry.overrun, entry.key}].first = &entry;
    for (const auto &entry : rest.entries)
        joined[{entry.idle, entry.gap, entry.overrun, entry.key}].second = &entry;
    Ns setParts = 0;
    Ns restParts = 0;
    for (const auto &[id, pair] : joined) {
        const auto &[inSet, inRest] = pair;
        const PathGroup::Entry &any = inSet ? *inSet : *inRest;
        PathKeyContribution c;
        c.key = any.key;
        c.gap = any.gap;
        c.overrun = any.overrun;
        c.idle = any.idle;
        c.category = any.category;
        const Ns setSum = inSet ? inSet->sumNs : 0;
        const Ns restSum = inRest ? inRest->sumNs : 0;
        setParts += setSum;
        restParts += restSum;
        c.setSumNs = saturate(setSum);
        c.restSumNs = saturate(restSum);
        c.setMeanMs = meanMs(setSum, set.n);
        c.restMeanMs = meanMs(restSum, rest.n);
        c.differenceMs = c.setMeanMs - c.restMeanMs;
        c.setOnPath = inSet ? inSet->onPath : 0;
        c.restOnPath = inRest ? inRest->onPath : 0;
        c.setShareOnPath = double(c.setOnPath) / double(set.n);
        c.restShareOnPath = double(c.restOnPath) / double(rest.n);
        if (c.setOnPath > 0)
            c.setMeanOnPathMs = meanMs(setSum, c.setOnPath);
        if (c.restOnPath > 0)
            c.restMeanOnPathMs = meanMs(restSum, c.restOnPath);
        if (inSet) {
            c.setOffPath = qint64(inSet->offPathSlack.size());
            c.setSlackMedianMs = medianMs(inSet->offPathSlack);
        }
        if (inRest) {
            c.restOffPath = qint64(inRest->offPathSlack.size());
            c.restSlackMedianMs = medianMs(inRest->offPathSlack);
        }
        result.keys.push_back(std::move(c));
    }
    result.exact = setParts == set.pathNs + set.overrunNs && restParts == rest.pathNs + rest.overrunNs;
    std::stable_sort(
        result.keys.begin(), result.keys.end(),
        [](const PathKeyContribution &a, const PathKeyContribution &b) { return a.differenceMs > b.differenceMs; });

    // A suspect explains an excess: a set (or candidate) that is faster on
    // average has none, however one key moved.
    if (result.differenceMs <= 0.0)
        return result;
    if (!result.keys.empty() && result.keys.front().differenceMs > 0.0
        && result.keys.front().differenceMs >= result.outsideDifferenceMs) {
        result.suspect = 0;
        const auto &top = result.keys.front();
        result.nextTest = nextPathTestFor(top.category, top.gap, top.idle, top.overrun);
    } else if (result.outsideDifferenceMs > 0.0) {
        result.outsideCarriesMost = true;
        result.nextTest = QStringLiteral("the excess lies outside the spans' tree (spans before the root): check "
                                         "the clocks of the services involved before blaming a span");
    }
    return result;
}

PathAttribution PathAttribution::compute(const TraceStore &store, const WorkflowPaths &paths, const SpanKeys &keys,
                                         std::span<const qint32> setRows, std::span<const qint32> restRows,
                                         WorkflowPaths::Target target)
{
    return compare(PathGroup::gather(store, paths, keys, setRows, target),
                   PathGroup::gather(store, paths, keys, restRows, target), keys.kind());
}
