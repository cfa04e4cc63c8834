#pragma once

#include "DiagnosisRecord.h"

#include <span>

class TraceStore;

// What a trace can vouch for: the phases it observed, the records it
// refused and why, and the clock caveats a reader of its numbers must know.
namespace TraceCoverage {

// `trace` names the file(s); `rows` are the requests in scope (every row
// when empty) for the phase counts. Rejected records group by reason with
// the numbers in it taken out, most frequent first (at most kMaxReasons).
TraceBoundaries boundaries(const TraceStore &store, std::span<const qint32> rows, const QString &trace);

// True for a rejection that is a clock defect (non-monotonic stamps, an end
// before its start, a negative time) rather than a malformed field.
bool isClockDefect(const QString &reason);

inline constexpr int kMaxReasons = 6;

} // namespace TraceCoverage
