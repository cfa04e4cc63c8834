#pragma once

#include "store/Phase.h"

#include <QtGlobal>

#include <algorithm>
#include <cstring>
#include <vector>

class LaneLayout;

// How many lanes are in each phase (or in unobserved residual time) over a
// row of time bins: the honest aggregate behind the swimlane's level of
// detail and its overview strip. A lane that covers a whole bin adds 1 to
// that bin's category; one that covers a third of it adds 1/3, so thin
// phases are neither dropped nor inflated to a full pixel.
class LaneActivity
{
public:
    static constexpr int kCategories = kPhaseCount + 1;
    static constexpr int kResidual = kPhaseCount;

    explicit LaneActivity(int bins = 0) { resize(bins); }

    void resize(int bins);
    int binCount() const { return m_bins; }

    // Adds lanes [slotBegin, slotEnd) of `layout` over the time window
    // [windowBegin, windowBegin + windowDuration) in ns; on the aligned axis
    // each lane is placed relative to its own origin. Header slots are
    // counted in headerCount() and drawn by nobody here.
    void addLanes(const LaneLayout &layout, qint64 slotBegin, qint64 slotEnd, bool aligned, qint64 windowBegin,
                  qint64 windowDuration);

    // Turns the accumulated edges into per-bin values; call once after the
    // last addLanes() and before value().
    void finish();
    // Lane-bins of `category` in `bin`.
    float value(int bin, int category) const { return m_values[size_t(bin) * kCategories + size_t(category)]; }
    const float *binValues(int bin) const { return m_values.data() + size_t(bin) * kCategories; }
    float total(int bin) const;

    qint64 laneCount() const { return m_lanes; }
    qint64 headerCount() const { return m_headers; }
    // Bins [firstTouched, lastTouched] may be non-zero; empty when first > last.
    int firstTouched() const { return m_firstTouched; }
    int lastTouched() const { return m_lastTouched; }

    // Instead of finish(): calls `run(first, last, values)` for consecutive
    // runs of bins [first, last] that hold the same values, in order, over
    // [firstTouched(), lastTouched()]. With few lanes (a zoomed-in row) it
    // visits only the bins where a segment starts or ends, so a row costs
    // what its lanes cost, not what its width costs.
    template<typename Run>
    void forEachRun(Run run);
    // Whether forEachRun() will visit only the bins where segments start or
    // end. Sorting those events costs several times what walking a bin
    // does: when the touched bins are few compared with the events (a row
    // of lanes that arrived together, each a pixel or two wide), or there
    // are more events than bins, it walks every bin instead.
    bool walksEvents() const
    {
        return !m_eventsOverflowed && !m_finished && m_lastTouched >= m_firstTouched
            && m_events.size() * kEventCostInBins < size_t(m_lastTouched - m_firstTouched + 1);
    }
    static constexpr size_t kEventCostInBins = 4;

    // Clears only what the last pass touched, so reusing one accumulator for
    // many pixel rows stays cheap.
    void clear();

private:
    void addSegment(int category, double x0, double x1);
    void noteBin(int bin)
    {
        if (m_events.size() < m_eventLimit)
            m_events.push_back(bin);
        else
            m_eventsOverflowed = true;
    }

    int m_bins = 0;
    // kCategories per bin, plus a guard bin. Partial bins (a segment's ends,
    // or all of a sub-pixel segment) go straight into m_values; whole bins
    // are marked in m_spans as differences and summed up in finish(). Most
    // phases are thinner than a pixel at full view, so most segments cost
    // one write.
    std::vector<float> m_values;
    std::vector<float> m_spans;
    // Bins written since the last clear(), while there are few of them.
    std::vector<int> m_events;
    size_t m_eventLimit = 0;
    bool m_eventsOverflowed = false;
    qint64 m_lanes = 0;
    qint64 m_headers = 0;
    int m_firstTouched = 0;
    int m_lastTouched = -1;
    bool m_finished = false;
};

template<typename Run>
void LaneActivity::forEachRun(Run run)
{
    if (m_lastTouched < m_firstTouched)
        return;
    if (!walksEvents()) {
        // Walk every bin, joining neighbours inside one long phase that
        // hold exactly the same values.
        finish();
        int from = m_firstTouched;
        for (int bin = m_firstTouched + 1; bin <= m_lastTouched + 1; ++bin) {
            // Bitwise: a fixed-size memcmp compiles to two vector compares, a
            // float loop to sixteen branches, in the hottest loop of the view.
            if (bin <= m_lastTouched
                && std::memcmp(binValues(bin), binValues(from), sizeof(float) * kCategories) == 0)
                continue;
            run(from, bin - 1, binValues(from));
            from = bin;
        }
        return;
    }
    std::sort(m_events.begin(), m_events.end());
    m_events.erase(std::unique(m_events.begin(), m_events.end()), m_events.end());
    double level[kCategories] = {};
    float values[kCategories];
    float between[kCategories];
    for (size_t e = 0; e < m_events.size(); ++e) {
        const int bin = m_events[e];
        const float *direct = m_values.data() + size_t(bin) * kCategories;
        const float *spans = m_spans.data() + size_t(bin) * kCategories;
        for (int c = 0; c < kCategories; ++c) {
            level[c] += double(spans[c]);
            values[c] = float(std::max(0.0, level[c] + double(direct[c])));
            between[c] = float(std::max(0.0, level[c]));
        }
        run(bin, bin, values);
        const int next = e + 1 < m_events.size() ? m_events[e + 1] : m_lastTouched + 1;
        if (next > bin + 1)
            run(bin + 1, next - 1, between);   // nothing starts or ends in here
    }
}
