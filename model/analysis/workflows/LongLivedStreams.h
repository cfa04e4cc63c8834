#pragma once

#include <QtGlobal>

#include <vector>

class TraceStore;

// Workflows that are one long-lived span and nothing else (a server-side
// event stream, a keep-alive connection): one span, no children, far
// longer than the typical workflow. They are flagged rather than treated as
// the slowest agent: their length is how long a connection stayed open, not
// how long a request took.
namespace LongLivedStreams {

// Far longer: at least kFactor times the median workflow E2E, and at
// least kMinimumNs, so a trace of sub-millisecond spans flags nothing.
inline constexpr double kFactor = 20.0;
inline constexpr qint64 kMinimumNs = 10'000'000'000; // 10 s

// 1 per workflow of `store` that is a long-lived stream.
std::vector<quint8> find(const TraceStore &store);

} // namespace LongLivedStreams
