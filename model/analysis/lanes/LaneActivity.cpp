#include "LaneActivity.h"

#include "LaneLayout.h"

#include <algorithm>
#include <cmath>

void LaneActivity::resize(int bins)
{
    m_bins = qMax(0, bins);
    m_values.assign((size_t(m_bins) + 2) * kCategories, 0.0f);
    m_spans.assign((size_t(m_bins) + 2) * kCategories, 0.0f);
    m_events.clear();
    m_eventLimit = size_t(m_bins);   // beyond one per bin, walking every bin is cheaper
    m_eventsOverflowed = false;
    m_firstTouched = 0;
    m_lastTouched = -1;
    m_lanes = m_headers = 0;
    m_finished = false;
}

void LaneActivity::clear()
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

// Coverage of [x0, x1): the fractional ends are added to their bins
// directly, the whole bins between them as a difference that finish()
// turns into a run of ones.
void LaneActivity::addSegment(int category, double x0, double x1)
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

void LaneActivity::addLanes(const LaneLayout &layout, qint64 slotBegin, qint64 slotEnd, bool aligned,
                            qint64 windowBegin, qint64 windowDuration)
{
    if (m_bins <= 0 || windowDuration <= 0)
        return;
    const double binsPerNs = double(m_bins) / double(windowDuration);
    const double binsPerMs = binsPerNs * 1e6;
    for (qint64 slot = slotBegin; slot < slotEnd; ++slot) {
        if (layout.isHeader(slot)) {
            ++m_headers;
            continue;
        }
        ++m_lanes;
        const qint64 origin = layout.origin(slot);
        if (origin == kNoTime)
            continue;
        // Integer subtraction first: epoch-sized times keep their precision.
        const double base = double(aligned ? -windowBegin : origin - windowBegin) * binsPerNs;
        const float *offsets = layout.offsets(slot);
        int previous = -1;
        double previousX = 0.0;
        for (int s = 0; s < kStampCount; ++s) {
            if (std::isnan(offsets[s]))
                continue;
            const double x = base + double(offsets[s]) * binsPerMs;
            if (previous >= 0) {
                // Consecutive stamps bound a phase; a gap over a missing
                // stamp is residual, never guessed into a phase.
                addSegment(s == previous + 1 ? previous : kResidual, previousX, x);
            }
            previous = s;
            previousX = x;
        }
    }
}

void LaneActivity::finish()
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

float LaneActivity::total(int bin) const
{
    const float *v = binValues(bin);
    float sum = 0.0f;
    for (int c = 0; c < kCategories; ++c)
        sum += v[c];
    return sum;
}
