#include "ServerFigures.h"

#include "TracelaneTableLoader.h"

#include "analysis/stats/ColumnCache.h"
#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerClassTable.h"
#include "clickhouse/ServerGoodput.h"
#include "clickhouse/ServerProfile.h"
#include "clickhouse/ServerRequests.h"
#include "clickhouse/ServerSetComparison.h"
#include "io/LoadControl.h"
#include "store/TraceStore.h"

#include <QHash>

#include <cmath>
#include <map>
#include <type_traits>

namespace ServerFigures {

namespace {

// `compute` run on the requests of the table `url` names, over a client
// that gives up once `cancel` is set; a URL that does not parse gives the
// result's empty value (false for a bool) and the reason in `error`.
template<typename Compute>
std::invoke_result_t<Compute, ServerRequests &> withRequests(const QString &url, const std::atomic<bool> *cancel,
                                                             QString *error, Compute &&compute)
{
    ClickHouseSource source;
    if (!ClickHouseSource::parse(url, &source, error))
        return {};
    const ClickHouseClient client(source, cancel);
    ServerRequests requests(client);
    return compute(requests);
}

} // namespace

ClassTable classTable(const QString &url, const QStringList &by, const ClassBands &bands, const ClassTableSpec &spec,
                      const std::atomic<bool> *cancel, QString *error)
{
    return withRequests(url, cancel, error, [&](ServerRequests &requests) {
        if (!requests.openFor(by, error))
            return ClassTable{};
        ClassTableSpec serverSpec = spec;
        serverSpec.withCdf = false; // the server sends figures, not curves
        return ServerClassTable::compute(requests, by, bands, serverSpec, error);
    });
}

std::vector<std::vector<qint32>> adoptSample(ClassTable *table, const ClassTable &sample,
                                             std::vector<std::vector<qint32>> sampleRows)
{
    std::map<QStringList, size_t> sampleCell;
    for (size_t cell = 0; cell < sample.cells.size(); ++cell)
        sampleCell.emplace(sample.cells[cell].classes, cell);
    std::vector<std::vector<qint32>> rows(table->cells.size());
    for (size_t cell = 0; cell < table->cells.size(); ++cell) {
        const auto found = sampleCell.find(table->cells[cell].classes);
        if (found == sampleCell.end())
            continue;
        table->cells[cell].cdf = sample.cells[found->second].cdf;
        table->cells[cell].cdfN = sample.cells[found->second].n;
        if (found->second < sampleRows.size())
            rows[cell] = std::move(sampleRows[found->second]);
    }
    table->overall.cdf = sample.overall.cdf;
    table->overall.cdfN = sample.overall.n;
    return rows;
}

bool profile(const QString &url, Boundary boundary, const QString &label, const QString &workload,
             const std::atomic<bool> *cancel, ProfileReport *report, QString *error)
{
    return withRequests(url, cancel, error, [&](const ServerRequests &requests) {
        return ServerProfile::compute(requests, boundary, label, workload, report, error);
    });
}

bool goodput(const QString &url, const Slo &slo, Boundary boundary, const std::atomic<bool> *cancel, Goodput *result,
             LittlesLawCheck *little, QString *error)
{
    return withRequests(url, cancel, error, [&](const ServerRequests &requests) {
        return ServerGoodput::compute(requests, slo, boundary, std::nan(""), result, little, error);
    });
}

ServerExceedance exceedance(const QString &url, const ExceedanceSpec &spec, int listed, const std::atomic<bool> *cancel,
                            QString *error)
{
    return withRequests(url, cancel, error, [&](const ServerRequests &requests) {
        return ServerExceedance::compute(requests, spec, listed, error);
    });
}

ProfileReport reportOf(const TraceStore &store, Boundary boundary, const QString &label, const QString &workload,
                       const std::atomic<bool> *cancel)
{
    ProfileReport report;
    QString error;
    if (!store.serverUrl.isEmpty()
        && profile(store.serverUrl, boundary,
                   QStringLiteral("%1 \u2014 the whole population, computed by the server").arg(label), workload,
                   cancel, &report, &error))
        return report;
    if (cancel && cancel->load())
        return report; // asked again: nobody reads this one
    report = profileRequests(store.requests, boundary,
                             error.isEmpty() ? label
                                             : QStringLiteral("%1 (the server did not compute the whole population's "
                                                              "report: %2)")
                                                   .arg(label, error),
                             workload);
    report.rejected = qint64(store.rejected.size());
    return report;
}

SampleExceedance exceedanceOfSample(ColumnCache &cache, const RequestSlice &slice, const ExceedanceSpec &spec,
                                    const QString &url, int listed, const std::atomic<bool> *cancel)
{
    SampleExceedance result;
    auto server = std::make_shared<ServerExceedance>(exceedance(url, spec, listed, cancel, &result.error));
    if (cancel && cancel->load())
        return result; // asked again: the held rows' analysis would be thrown away
    ExceedanceSpec held = spec;
    if (result.error.isEmpty()) {
        held.threshold = server->threshold;
        // Which of the population's slowest the sample holds: one pass
        // over the held ids.
        const RequestTable &table = cache.table();
        QHash<QString, size_t> wanted;
        for (size_t i = 0; i < server->members.size(); ++i)
            wanted.insert(server->members[i].requestId, i);
        result.memberRows.assign(server->members.size(), -1);
        for (qint32 row = 0; row < table.rowCount() && !wanted.isEmpty(); ++row) {
            const auto found = wanted.constFind(table.idText(row));
            if (found != wanted.constEnd())
                result.memberRows[*found] = row;
        }
    }
    result.analysis = ExceedanceAnalysis::compute(cache, slice, held);
    if (result.error.isEmpty()) {
        result.analysis.attribution = server->attribution;
        result.server = std::move(server);
    }
    return result;
}

bool rankings(const QString &url, const ExceedanceSpec &spec, const ServerExceedance &set,
              const std::atomic<bool> *cancel, SetComparison *result, QString *error)
{
    return withRequests(url, cancel, error, [&](ServerRequests &requests) {
        return requests.open(error)
            && ServerSetComparison::compute(requests, spec, set.threshold, set.setSize, set.restSize, result, error);
    });
}

LoadResult fetchMember(const QString &url, const ServerExceedance::Member &member, const std::atomic<bool> *cancel)
{
    LoadResult failed;
    ClickHouseSource source;
    if (!ClickHouseSource::parse(ClickHouseSource::withTrace(ClickHouseSource::withSample(url, 1), member.requestId),
                                 &source, &failed.fatalError))
        return failed;
    source.rowSource = member.source;
    source.row = member.row;
    LoadControl control;
    control.followCancel(cancel);
    return TracelaneTableLoader::load(source, LoadOptions{}, &control);
}

} // namespace ServerFigures
