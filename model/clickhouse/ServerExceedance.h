#pragma once

#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "store/Stamp.h"

#include <QString>

#include <vector>

class ServerRequests;

// The exceedance set answered by ClickHouse in three reads of the rows, the
// same figures as findExceedanceSet() and PhaseAttribution::compute() on the
// file:
// 1. the count of the metric's values in each of coarse buckets (a monotone
//    function of the value computed by the server, so the buckets order the
//    values): n, and which buckets hold the threshold's two neighbouring
//    ranks;
// 2. one GROUP BY of the rows by side of those buckets (below, in, above)
//    and which stamps they lack (ServerStampSums: integer-ns sums), the rows
//    in the threshold's buckets by their value too: those few values give
//    the threshold exactly, and each says whether its rows are in the set;
// 3. the first members in the set's order (ORDER BY ... LIMIT: only what is
//    listed is fetched).
// When the threshold's buckets hold more than `groupedUpTo` rows (a narrow
// peak of equal or nearly equal values) the threshold is taken exactly
// first (ServerOrderStatistics) and read 2 splits by it. The feature
// rankings are ServerSetComparison's, the member's comparison
// ServerMemberComparison's.
struct ServerExceedance
{
    struct Member
    {
        QString requestId;
        QString source; // the pushed file's digest: (source, row) is the row
        qint64 row = 0; // the request's position in the pushed file
        double value = 0.0;
        qint64 sendNs = kNoTime; // its client send (kNoTime: none)
    };

    ExceedanceSpec spec;
    Boundary boundary = Boundary::Client;
    qint64 sliceRequests = 0;
    qint64 observedRequests = 0;
    double threshold = std::numeric_limits<double>::quiet_NaN();
    qint64 setSize = 0;
    qint64 restSize = 0;
    std::vector<Member> members; // the first `listed`, in spec.order
    PhaseAttribution attribution;

    static constexpr qint64 kGroupedUpTo = 200'000;
    // Members in the metric's order are found by row number when the top
    // buckets holding them have at most this many rows.
    static constexpr qint64 kTopRowsGrouped = 10'000;
    static ServerExceedance compute(const ServerRequests &requests, const ExceedanceSpec &spec, int listed,
                                    QString *error, qint64 groupedUpTo = kGroupedUpTo);
    // The member at 0-based `position` of this set's order (past the listed
    // ones: one read of the set's rows, the server keeping the first
    // position + 1 in order). False with `error` set when the server fails or
    // the set no longer has so many rows.
    bool memberAt(const ServerRequests &requests, qint64 position, Member *member, QString *error) const;
    // The set's order over the metric's SQL `value`: the value descending
    // (unless by arrival), then client send time and the row's position in
    // its file, as on the file; then the file, since files pushed into one
    // table may share the rest.
    static QString orderSql(ExceedanceOrder order, const QString &value);
};
