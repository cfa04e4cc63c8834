#pragma once

#include "ServerSetComparison.h"

#include "analysis/exceedance/MemberComparison.h"
#include "analysis/exceedance/SetComparison.h"
#include "analysis/requests/Boundary.h"

#include <vector>

class RequestTable;

// Where one member of the exceedance set sits among the rest
// (MemberComparison) when the rest stays on the server, figure for figure
// what ExceedanceAnalysis::member() gives on the file, with no read of its
// own:
// - the member's own values from its fetched row (ServerFigures::fetchMember);
// - for each numeric feature the rest's count of values, of those below the
//   member's and of those equal to it (its percentile rank by mid-rank) and
//   their median, found by the rankings in their cells
//   (ServerSetComparison::MemberPlace);
// - for each categorical attribute the rest's count of the member's value
//   (or of rows without one), counted by the rankings too.
// The per-token figures (gap p95, longest stall) are not in Tracelane's
// tables, so a member has no row for them here.
namespace ServerMemberComparison {

// The places the rankings are to find for the member at `fetchedRow` of
// `fetched`: one per numeric feature, in the comparison's order. `names`
// holds the table's attributes (ServerRequests::attributeNames).
std::vector<ServerSetComparison::MemberPlace> places(const RequestTable &names, Boundary boundary,
                                                     const RequestTable &fetched, qint32 fetchedRow);

// The comparison from `places` as ServerSetComparison::compute filled them
// and the `rankings` it returned (the categorical attributes' counts);
// `restSize` the set's rest. Its position and row are the caller's to fill.
MemberComparison fromRankings(const RequestTable &names, Boundary boundary, const RequestTable &fetched,
                              qint32 fetchedRow, const std::vector<ServerSetComparison::MemberPlace> &places,
                              const SetComparison &rankings, qint64 restSize);

} // namespace ServerMemberComparison
