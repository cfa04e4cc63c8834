#pragma once

#include "analysis/requests/ProfileReport.h"

#include <QString>

class ServerRequests;

// profileRequests() answered by ClickHouse, for `tracelane-cli analyse
// clickhouse://…`: one pass of counts, minima, maxima and exact sums (the
// metrics' means from ExactSum's limb sums, the phase means and the TTFT
// residual from integer-ns sums), then one query for the order statistics
// every percentile needs (ServerOrderStatistics). Every figure equals
// profileRequests() on the file that was pushed.
namespace ServerProfile {

// False with `error` set when the server fails or no request is in range.
bool compute(const ServerRequests &requests, Boundary boundary, const QString &label, const QString &workload,
             ProfileReport *report, QString *error);

} // namespace ServerProfile
