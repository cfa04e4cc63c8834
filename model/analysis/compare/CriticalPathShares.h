#pragma once

#include "store/SpanCategory.h"

#include <QString>

#include <array>
#include <atomic>

class RequestSlice;
class TraceStore;

// Where the critical paths of one side's workflows spend their time, by span
// kind: each workflow's critical path (as the Workflow dock draws it) is cut
// into its sections and each section's time is credited to its span's kind;
// time between root spans counts as idle. Shares are of the summed path time
// of all workflows on the side, so long workflows weigh more, as they do in
// the E2E percentiles.
struct CriticalPathShares
{
    static constexpr int kIdle = kSpanCategoryCount; // index of "idle between spans"
    static constexpr int kParts = kSpanCategoryCount + 1;

    qint64 workflows = 0; // workflow rows on the side
    qint64 analysed = 0;  // of those, scheduled and traced
    qint64 failed = 0;    // could not be scheduled (broken span tree)
    double pathMs = 0.0;
    std::array<double, kParts> ms{};

    double share(int part) const { return pathMs > 0.0 ? ms[size_t(part)] / pathMs : 0.0; }

    // "model_call", ..., "idle"; "Model call", ..., "Idle between spans".
    static QString partKey(int part);
    static QString partLabel(int part);

    static CriticalPathShares of(const TraceStore &store, const RequestSlice &rows,
                                 const std::atomic<bool> *cancelled = nullptr);
};
