#pragma once

#include <QtGlobal>

#include <algorithm>
#include <cstring>
#include <vector>

// How much of each category covers each of a row of bins: the accumulator
// behind the swimlane's level of detail (LaneActivity for request phases,
// WorkActivity for workflow kinds). A segment that covers a whole bin adds
// 1 to that bin's category; one that covers a third of it adds 1/3, so thin
// segments are neither dropped nor inflated to a full pixel.
template<int Categories> class BinCoverage
{
public:
    static constexpr int kCategories = Categories;

    explicit BinCoverage(int bins = 0) { resize(bins); }

    void resize(int bins);
    int binCount() const { return m_bins; }

    // Turns the accumulated edges into per-bin values; call once after the
    // last segment and before value().
    void finish();
    // Coverage of `category` in `bin`.
    float value(int bin, int category) const { return m_values[size_t(bin) * kCategories + size_t(category)]; }
    const float *binValues(int bin) const { return m_values.data() + size_t(bin) * kCategories; }
    float total(int bin) const;

    // Lanes and group headers seen since the last clear() (the adders count them).
    qint64 laneCount() const { return m_lanes; }
    qint64 headerCount() const { return m_headers; }
    // Bins [firstTouched, lastTouched] may be non-zero; empty when first > last.
    int firstTouched() const { return m_firstTouched; }
    int lastTouched() const { return m_lastTouched; }

    // Instead of finish(): calls `run(first, last, values)` for consecutive
    // runs of bins [first, last] that hold the same values, in order, over
    // [firstTouched(), lastTouched()]. With few segments (a zoomed-in row)
    // it visits only the bins where a segment starts or ends, so a row costs
    // what its lanes cost, not what its width costs.
    template<typename Run> void forEachRun(Run run);
    // Whether forEachRun() will visit only the bins where segments start or
    // end. Sorting those events costs several times what walking a bin
    // does: when the touched bins are few compared with the events (a row
    // of lanes that arrived together, each a pixel or two wide), or there
    // are more events than bins, it walks every bin instead.
    bool walksEvents() const
    {
        return !m_eventsOverflowed && !m_finished && m_lastTouched >= m_firstTouched
            && m_events.size() * kEventCostInBins < size_t(m_lastTouched - m_firstTouched) + 1;
    }
    static constexpr size_t kEventCostInBins = 4;

    // Clears only what the last pass touched, so reusing one accumulator for
    // many pixel rows stays cheap.
    void clear();

    // Coverage of [x0, x1) in bin units: the fractional ends are added to
    // their bins directly, the whole bins between them as a difference that
    // finish() turns into a run of ones.
    void addSegment(int category, double x0, double x1);

protected:
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
    // segments are thinner than a pixel at full view, so most cost one write.
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

template<int Categories> void BinCoverage<Categories>::resize(int bins)
{
    m_bins = qMax(0, bins);
    m_values.assign((size_t(m_bins) + 2) * kCategories, 0.0f);
    m_spans.assign((size_t(m_bins) + 2) * kCategories, 0.0f);
    m_events.clear();
    m_eventLimit = size_t(m_bins); // beyond one per bin, walking every bin is cheaper
    m_eventsOverflowed = false;
    m_firstTouched = 0;
    m_lastTouched = -1;
    m_lanes = m_headers = 0;
    m_finished = false;
}

template<int Categories> void BinCoverage<Categories>::clear()
{
    if (!m_eventsOverflowed) {
        for (const int bin : m_events) {
            std::fill_n(m_values.begin() + qsizetype(size_t(bin) * kCategories), kCategories, 0.0f);
            std::fill_n(m_spans.begin() + qsizetype(size_t(bin) * kCategories), kCategories, 0.0f);
        }
    } else if (m_lastTouched >= m_firstTouched) {
        const size_t from = size_t(m_firstTouched) * kCategories;
        const size_t to = std::min(m_values.size(), (size_t(m_lastTouched) + 2) * kCategories);
        std::fill(m_values.begin() + qsizetype(from), m_values.begin() + qsizetype(to), 0.0f);
        std::fill(m_spans.begin() + qsizetype(from), m_spans.begin() + qsizetype(to), 0.0f);
    }
    m_events.clear();
    m_eventsOverflowed = false;
    m_firstTouched = 0;
    m_lastTouched = -1;
    m_lanes = m_headers = 0;
    m_finished = false;
}

template<int Categories> void BinCoverage<Categories>::addSegment(int category, double x0, double x1)
{
    x0 = std::max(x0, 0.0);
    x1 = std::min(x1, double(m_bins));
    if (!(x1 > x0))
        return;
    const int i0 = int(x0);
    const int i1 = std::min(int(x1), m_bins - 1);
    float *values = m_values.data() + category;
    if (i0 == i1) {
        values[size_t(i0) * kCategories] += float(x1 - x0);
        noteBin(i0);
    } else {
        values[size_t(i0) * kCategories] += float(double(i0 + 1) - x0);
        values[size_t(i1) * kCategories] += float(x1 - double(i1));
        noteBin(i0);
        noteBin(i1);
        if (i1 > i0 + 1) {
            float *spans = m_spans.data() + category;
            spans[size_t(i0 + 1) * kCategories] += 1.0f;
            spans[size_t(i1) * kCategories] -= 1.0f;
            noteBin(i0 + 1);
        }
    }
    if (m_lastTouched < m_firstTouched) {
        m_firstTouched = i0;
        m_lastTouched = i1;
    } else {
        m_firstTouched = std::min(m_firstTouched, i0);
        m_lastTouched = std::max(m_lastTouched, i1);
    }
}

template<int Categories> void BinCoverage<Categories>::finish()
{
    if (m_finished || m_lastTouched < m_firstTouched) {
        m_finished = true;
        return;
    }
    // Every bin of the range now holds a value: clear() must wipe the range.
    m_eventsOverflowed = true;
    // Whole bins: a running sum of the differences (in double: a million
    // lanes of +1/-1 must come back to exactly zero).
    double level[kCategories] = {};
    for (int bin = m_firstTouched; bin <= m_lastTouched; ++bin) {
        float *v = m_values.data() + size_t(bin) * kCategories;
        const float *d = m_spans.data() + size_t(bin) * kCategories;
        for (int c = 0; c < kCategories; ++c) {
            level[c] += double(d[c]);
            v[c] = float(std::max(0.0, level[c] + double(v[c])));
        }
    }
    m_finished = true;
}

template<int Categories> float BinCoverage<Categories>::total(int bin) const
{
    const float *v = binValues(bin);
    float sum = 0.0f;
    for (int c = 0; c < kCategories; ++c)
        sum += v[c];
    return sum;
}

template<int Categories> template<typename Run> void BinCoverage<Categories>::forEachRun(Run run)
{
    if (m_lastTouched < m_firstTouched)
        return;
    if (!walksEvents()) {
        // Walk every bin, joining neighbours inside one long segment that
        // hold exactly the same values.
        finish();
        int from = m_firstTouched;
        for (int bin = m_firstTouched + 1; bin <= m_lastTouched + 1; ++bin) {
            // Bitwise: a fixed-size memcmp compiles to a few vector compares,
            // a float loop to a branch per category, in the hottest loop of
            // the view.
            // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bitwise equality is what is meant
            if (bin <= m_lastTouched && std::memcmp(binValues(bin), binValues(from), sizeof(float) * kCategories) == 0)
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
            run(bin + 1, next - 1, between); // nothing starts or ends in here
    }
}
