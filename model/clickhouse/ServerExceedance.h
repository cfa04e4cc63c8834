#pragma once

#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/PhaseAttribution.h"

#include <QString>

#include <vector>

class ServerRequests;

// The exceedance set answered by ClickHouse: the threshold from the server's
// order statistics (as ServerClassTable), set and rest sizes (countIf), the
// first members in the set's order (ORDER BY ... LIMIT: only what is listed
// is fetched) and the set-vs-rest phase attribution from integer-ns sums
// (sumIf, countIf) through PhaseAttribution::fromSums — the same figures as
// findExceedanceSet() and PhaseAttribution::compute() on the file. The
// feature rankings (KS distances over whole distributions) are not computed
// on the server yet.
struct ServerExceedance
{
    struct Member
    {
        QString requestId;
        qint64 row = 0; // the request's position in the pushed file
        double value = 0.0;
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

    static ServerExceedance compute(const ServerRequests &requests, const ExceedanceSpec &spec, int listed,
                                    QString *error);
};
