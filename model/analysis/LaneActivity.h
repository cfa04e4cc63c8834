#pragma once

#include "store/Phase.h"

#include <QtGlobal>

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

    // Clears only what the last pass touched, so reusing one accumulator for
    // many pixel rows stays cheap.
    void clear();

private:
    void addSegment(int category, double x0, double x1);

    int m_bins = 0;
    // kCategories per bin, plus a guard bin. Partial bins (a segment's ends,
    // or all of a sub-pixel segment) go straight into m_values; whole bins
    // are marked in m_spans as differences and summed up in finish(). Most
    // phases are thinner than a pixel at full view, so most segments cost
    // one write.
    std::vector<float> m_values;
    std::vector<float> m_spans;
    qint64 m_lanes = 0;
    qint64 m_headers = 0;
    int m_firstTouched = 0;
    int m_lastTouched = -1;
    bool m_finished = false;
};
