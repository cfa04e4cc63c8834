#pragma once

#include "analysis/classes/ClassTable.h"
#include "analysis/requests/ProfileReport.h"
#include "clickhouse/ServerExceedance.h"
#include "io/LoadResult.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <vector>

class TraceStore;

// The figures of the whole population a store holds a sample of
// (TraceStore::serverUrl), computed by the server as `tracelane-cli slice`
// and `exceed` compute them on a clickhouse:// URL: what the window's class
// table and exceedance view show in place of the sample's own estimates,
// while the lanes draw the rows held. Each call is one or more server
// queries of the whole range: run it off the GUI thread; `cancel` stops the
// wait (the server may finish the query on its own).
namespace ServerFigures {

// Whether `store` is a sample whose population the server can describe.
bool available(const TraceStore &store);

ClassTable classTable(const QString &url, const QStringList &by, const ClassBands &bands, const ClassTableSpec &spec,
                      const std::atomic<bool> *cancel, QString *error);

// The server's `table` takes from the held sample's table the CDF curves
// (cells matched by their classes; the overall row's too), and the rows of
// each class among the held rows (`sampleRows`, one list per sample cell)
// are returned in the server's cell order: what picking a class filters.
// A class the sample lacks (or labels differently: a numeric attribute's
// quartile bands are the sample's own) gets no curve and no rows.
std::vector<std::vector<qint32>> adoptSample(ClassTable *table, const ClassTable &sample,
                                             std::vector<std::vector<qint32>> sampleRows);

// The seed profiler's report (percentiles, phase means) over the population.
bool profile(const QString &url, Boundary boundary, const QString &label, const QString &workload,
             const std::atomic<bool> *cancel, ProfileReport *report, QString *error);

// The set, its sizes and its phase attribution, and its first `listed`
// members in spec.order (ids and values: their rows are fetched on demand).
ServerExceedance exceedance(const QString &url, const ExceedanceSpec &spec, int listed, const std::atomic<bool> *cancel,
                            QString *error);

// The rows of these requests (the population's slowest, to step through)
// from the server, whether the sample holds them or not.
LoadResult fetchRequests(const QString &url, const QStringList &ids, const std::atomic<bool> *cancel);

} // namespace ServerFigures
