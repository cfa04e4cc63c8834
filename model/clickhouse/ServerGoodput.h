#pragma once

#include "analysis/load/ServiceLoad.h"

#include <QString>

class ServerRequests;

// ServiceLoad::goodput() and ServiceLoad::littlesLaw() answered by
// ClickHouse, for `tracelane-cli goodput clickhouse://…`, figure for figure
// those of the file that was pushed, without fetching its rows:
// 1. one read of counts, minima, maxima and exact integer sums: the goodput
//    split by objective, the window, the output tokens, and the stays
//    (client send to last client token) with their sum;
// 2. one read of the steadiness quarters (they need the first and last
//    send) and the completions inside the arrival window;
// 3. the peak in flight: the sends and the ends counted per time bucket;
//    the level before a bucket plus its sends bounds what the level reaches
//    inside it, the level at a bucket's end is reached, so only the buckets
//    whose bound passes the highest level reached have their events sorted
//    by the server (ends before sends at equal times, as the file's sweep)
//    and the running sum's largest value returned.
namespace ServerGoodput {

// The peak's buckets: the arrival-to-end window cut into about 2^this. On
// the bench's 20M requests (11,485 in flight at the peak) 2^16 buckets held
// so many sends that 40K of them had to be sorted (31 s); 2^20 left one
// read of sorted events (6.0 s in all, 189 MB in the client).
inline constexpr int kFirstBucketBits = 20;
// The buckets whose events one read sorts, at most.
inline constexpr qsizetype kRisesPerRead = 5'000;

// `requests` opened as the rows to judge (ServerRequests::fromWhere).
// False with `error` set when the server fails or the rows change between
// the reads.
bool compute(const ServerRequests &requests, const Slo &slo, Boundary boundary, double observedInFlight,
             Goodput *goodput, LittlesLawCheck *little, QString *error);

} // namespace ServerGoodput
