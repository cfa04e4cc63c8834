#pragma once

#include "analysis/classes/ClassTable.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/load/ServiceLoad.h"
#include "analysis/requests/ProfileReport.h"
#include "clickhouse/ServerExceedance.h"
#include "io/LoadResult.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

class ColumnCache;
class TraceStore;
class RequestSlice;

// The figures of the whole population a store holds a sample of
// (TraceStore::serverUrl), computed by the server as `tracelane-cli slice`
// and `exceed` compute them on a clickhouse:// URL: what the window's class
// table and exceedance view show in place of the sample's own estimates,
// while the lanes draw the rows held. Each call is one or more server
// queries of the whole range: run it off the GUI thread; `cancel` stops the
// wait (the server may finish the query on its own).
namespace ServerFigures {

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
// The report the window shows for `store`: its population's when it is a
// sample of a server's table (labelled so), else, or when the server fails
// (its error in the label), its own rows'. Once `cancel` is set (asked
// again) nothing more is computed: the result is an empty report.
ProfileReport reportOf(const TraceStore &store, Boundary boundary, const QString &label, const QString &workload,
                       const std::atomic<bool> *cancel);

// Goodput under `slo` and Little's law over the population (ServerGoodput,
// as `tracelane-cli goodput` computes them on the URL): what the Load dock
// states beside the held sample's series.
bool goodput(const QString &url, const Slo &slo, Boundary boundary, const std::atomic<bool> *cancel, Goodput *result,
             LittlesLawCheck *little, QString *error);
// The set, its sizes and its phase attribution, and its first `listed`
// members in spec.order (ids and values: their rows are fetched on demand).
ServerExceedance exceedance(const QString &url, const ExceedanceSpec &spec, int listed, const std::atomic<bool> *cancel,
                            QString *error);

// What the exceedance view shows of a sample: the held rows' analysis, its
// set judged by the population's threshold and carrying the population's
// phase attribution, the server's set (its sizes and first `listed`
// members), and which of those members the sample holds. When the server
// fails, the held rows' own analysis and the error; once `cancel` is set,
// nothing more (an empty analysis nobody reads).
struct SampleExceedance
{
    ExceedanceAnalysis analysis;
    std::shared_ptr<const ServerExceedance> server;
    QString error;
    std::vector<qint32> memberRows; // each of server->members' held row, or -1
};
SampleExceedance exceedanceOfSample(ColumnCache &cache, const RequestSlice &slice, const ExceedanceSpec &spec,
                                    const QString &url, int listed, const std::atomic<bool> *cancel);

// The feature rankings of the population's set (`set`, from exceedance()
// with the same spec), computed by the server (ServerSetComparison): one or
// two reads of every row, so asked after the set is shown.
bool rankings(const QString &url, const ExceedanceSpec &spec, const ServerExceedance &set,
              const std::atomic<bool> *cancel, SetComparison *result, QString *error);

// One of the population's slowest (to step through) from the server,
// whether the sample holds it or not: its request row (by its file and
// position there, as request ids may repeat across pushed files) and, when
// it is a workflow of a span trace, its spans.
LoadResult fetchMember(const QString &url, const ServerExceedance::Member &member, const std::atomic<bool> *cancel);

} // namespace ServerFigures
