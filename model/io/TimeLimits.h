#pragma once

#include <QString>
#include <QtGlobal>

// What every loader treats as an absurd time, so that the same record is
// refused whichever format or command reads it (broken clocks are errors,
// not speed).
namespace TimeLimits {

// Longest request or span accepted: anything longer has a timestamp in the
// wrong unit or a missing start written as 0.
constexpr qint64 kMaxDurationNs = 30LL * 24 * 3600 * 1'000'000'000LL;

// Farthest a span may start or end from the middle of its trace (the
// median of its spans' starts): a span in 2200 inside a 2023 trace.
constexpr qint64 kMaxTraceSpreadNs = kMaxDurationNs;

// "lasts 41.2 days, more than the 30-day limit; a timestamp is probably in
// the wrong unit", with `what` ("the span", "the request") in front.
inline QString tooLong(const QString &what, qint64 ns)
{
    return QStringLiteral("%1 lasts %2 days, more than the 30-day limit; a timestamp is probably in the wrong unit")
        .arg(what)
        .arg(double(ns) / 86'400e9, 0, 'f', 1);
}

} // namespace TimeLimits
