#pragma once

#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/MemberComparison.h"
#include "analysis/exceedance/SetComparison.h"

#include <QString>

class RequestTable;
class ServerRequests;

// Where one member of the exceedance set sits among the rest
// (MemberComparison) when the rest stays on the server, figure for figure
// what ExceedanceAnalysis::member() gives on the file:
// - the member's own values from its fetched row;
// - one read of the rows: for each numeric feature the rest's count of
//   values, of those below the member's and of those equal to it (its
//   percentile rank by mid-rank), and for each categorical attribute the
//   rest's count of the member's value (or of rows without one);
// - the rest's medians from the set's rankings (ServerSetComparison) where
//   they were computed, and from ServerOrderStatistics for the others (the
//   metrics, which are never ranked, and all of them without rankings).
// The per-token figures (gap p95, longest stall) are not in Tracelane's
// tables, so a member has no row for them here.
struct ServerMemberComparison
{
    // `requests` opened (ServerRequests::open) and filtered as the set was
    // found, `threshold` the set's; `rankings` the set's (null when they
    // were not computed); `fetched`'s `fetchedRow` the member's request
    // (ServerFigures::fetchMember). `result`'s position and row are the
    // caller's to fill.
    static bool compute(const ServerRequests &requests, const ExceedanceSpec &spec, double threshold,
                        const SetComparison *rankings, const RequestTable &fetched, qint32 fetchedRow,
                        MemberComparison *result, QString *error);
};
