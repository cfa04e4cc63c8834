#include "ClickHouseAnalyses.h"

#include "ClassOptions.h"
#include "CliContext.h"

#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerClassTable.h"
#include "clickhouse/ServerExceedance.h"
#include "clickhouse/ServerMemberComparison.h"
#include "clickhouse/ServerProfile.h"
#include "clickhouse/ServerRequests.h"
#include "clickhouse/ServerSetComparison.h"
#include "clickhouse/ServerTableKind.h"
#include "remote/ServerFigures.h"
#include "report/ClassTableJson.h"
#include "report/ClassTableText.h"
#include "report/ExceedanceJson.h"
#include "report/ExceedanceText.h"
#include "report/ReportFormat.h"
#include "report/ReportJson.h"
#include "report/ReportText.h"
#include "store/TraceStore.h"

#include <limits>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

namespace {

// Reads the options and opens the table; prints the problem and returns the
// exit code, or -1 to go on.
int prepare(const CliContext &context, const QString &command, ClassOptions::Values *options, ClickHouseSource *source)
{
    if (context.arguments.size() != 1) {
        context.err << QStringLiteral("tracelane-cli %1: expected exactly one FILE or URL\n").arg(command);
        return ExitUsage;
    }
    if (!ClassOptions::read(context, options))
        return ExitUsage;
    if (isStreamMetric(options->metric)) {
        context.err << QStringLiteral("tracelane-cli %1: --metric %2 is read from per-token times, which Tracelane's "
                                      "ClickHouse tables do not hold; open the file for it\n")
                           .arg(command, metricKey(options->metric));
        return ExitUsage;
    }
    return openServerSource(context, command, source);
}

QStringList filterDimensions(const ClassOptions::Values &options)
{
    QStringList keys;
    for (const auto &condition : options.where.conditions())
        keys << condition.dimension;
    return keys;
}

// --where as a condition of every read; on an unknown dimension or class the
// file's message and exit code.
int applyFilter(const CliContext &context, const ClassOptions::Values &options, ServerRequests *requests)
{
    if (options.where.isEmpty())
        return -1;
    QString error;
    if (!requests->setFilter(options.where, options.bands, &error)) {
        context.err << QStringLiteral("tracelane-cli: --where: %1\n").arg(error);
        return ExitUsage;
    }
    return -1;
}

} // namespace

int openServerSource(const CliContext &context, const QString &command, ClickHouseSource *source)
{
    QString error;
    if (!ClickHouseSource::parse(context.arguments.first(), source, &error)) {
        context.err << QStringLiteral("tracelane-cli %1: %2\n").arg(command, error);
        return ExitUsage;
    }
    if (!source->where.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli %1: where= filters span tables (otel_traces); on Tracelane's "
                                      "own tables bound the rows with from= and to=\n")
                           .arg(command);
        return ExitUsage;
    }
    return -1;
}

bool isClickHouseArgument(const QString &argument)
{
    return ClickHouseSource::isUrl(argument);
}

bool isSpanTableArgument(const QString &argument)
{
    ClickHouseSource source;
    QString error;
    if (!isClickHouseArgument(argument) || !ClickHouseSource::parse(argument, &source, &error))
        return false;
    ServerTableKind kind = ServerTableKind::Unknown;
    return ServerTable::kind(ClickHouseClient(source), &kind, &error) && kind == ServerTableKind::OtelTraces;
}

bool computesOnServer(const QString &argument)
{
    return isClickHouseArgument(argument) && !isSpanTableArgument(argument);
}

int runSliceOnClickHouse(const CliContext &context)
{
    ClassOptions::Values options;
    ClickHouseSource source;
    if (const int code = prepare(context, QStringLiteral("slice"), &options, &source); code >= 0)
        return code;
    const ClickHouseClient client(source);
    ServerRequests requests(client);
    QString error;
    if (!requests.openFor(options.by + filterDimensions(options), &error)) {
        context.err << QStringLiteral("tracelane-cli slice: %1\n").arg(error);
        return ExitFailure;
    }
    if (const int code = applyFilter(context, options, &requests); code >= 0)
        return code;
    if (options.by.isEmpty() || options.by.size() > 2) {
        context.err << QStringLiteral("tracelane-cli slice: --by takes one or two dimensions\n");
        return ExitUsage;
    }
    ClassTableSpec spec;
    spec.metric = options.metric;
    spec.boundary = context.boundary;
    spec.exceedanceQ = options.percentile;
    spec.withCdf = false;
    const ClassTable table = ServerClassTable::compute(requests, options.by, options.bands, spec, &error);
    if (!error.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli slice: %1\n").arg(error);
        return ExitFailure;
    }
    const QString sliceText = options.where.describe();
    if (context.json) {
        nlohmann::json document = ClassTableJson::table(table, sliceText);
        document["file"] = source.display().toStdString();
        document["rejected"] = 0;
        context.out << QString::fromStdString(document.dump(2)) << '\n';
    } else {
        context.out << ClassTableText::table(table, sliceText) << '\n';
    }
    return table.error.isEmpty() ? ExitOk : ExitFailure;
}

namespace {

nlohmann::json number(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// Whether the table's spans table holds any span (its requests are then
// workflows). False when it cannot be asked.
bool hasSpans(const ClickHouseClient &client)
{
    std::vector<QStringList> rows;
    QString error;
    return client.select(
               QStringLiteral("SELECT count() FROM (SELECT 1 FROM %1 LIMIT 1)").arg(client.source().spansTable()),
               &rows, &error, 1)
        && !rows.empty() && rows.front().first().toLongLong() > 0;
}

// The member at options.member of the set's order (listed in `set` or read),
// its row fetched: the places among the rest the rankings are to find for it.
struct AskedMember
{
    ServerExceedance::Member member;
    std::shared_ptr<const TraceStore> fetched;
    std::vector<ServerSetComparison::MemberPlace> places;
};

std::optional<AskedMember> askMember(const QString &url, const ServerRequests &requests, const ServerExceedance &set,
                                     qsizetype position, QString *error)
{
    AskedMember asked;
    if (position < qsizetype(set.members.size()))
        asked.member = set.members[size_t(position)];
    else if (!set.memberAt(requests, position, &asked.member, error))
        return std::nullopt;
    LoadResult fetched = ServerFigures::fetchMember(url, asked.member, nullptr);
    if (!fetched.ok() || fetched.store->requests.rowCount() != 1) {
        *error = QStringLiteral("member %1 (%2) could not be fetched: %3")
                     .arg(position + 1)
                     .arg(asked.member.requestId,
                          fetched.ok() ? QStringLiteral("%1 rows").arg(fetched.store->requests.rowCount())
                                       : fetched.fatalError);
        return std::nullopt;
    }
    asked.fetched = std::move(fetched.store);
    asked.places
        = ServerMemberComparison::places(requests.attributeNames(), set.spec.boundary, asked.fetched->requests, 0);
    return asked;
}

} // namespace

int runExceedOnClickHouse(const CliContext &context)
{
    ClassOptions::Values options;
    ClickHouseSource source;
    if (const int code = prepare(context, QStringLiteral("exceed"), &options, &source); code >= 0)
        return code;
    const ClickHouseClient client(source);
    ServerRequests requests(client);
    QString error;
    ExceedanceSpec spec;
    spec.metric = options.metric;
    spec.boundary = context.boundary;
    spec.q = options.percentile;
    spec.order = options.order;
    ServerExceedance result;
    // Every attribute is ranked: all their names, kinds and order.
    if (options.rankings ? !requests.open(&error)
                         : !options.where.isEmpty() && !requests.openFor(filterDimensions(options), &error)) {
        context.err << QStringLiteral("tracelane-cli exceed: %1\n").arg(error);
        return ExitFailure;
    }
    if (const int code = applyFilter(context, options, &requests); code >= 0)
        return code;
    result = ServerExceedance::compute(requests, spec, options.members, &error);
    // The member's places among the rest are found in the rankings' cells:
    // its row first. --no-rankings is the figures alone, without it.
    std::optional<AskedMember> asked;
    if (error.isEmpty() && options.rankings && options.member < result.setSize)
        asked = askMember(context.arguments.first(), requests, result, options.member, &error);
    SetComparison comparison;
    if (error.isEmpty() && options.rankings)
        ServerSetComparison::compute(requests, spec, result.threshold, result.setSize, result.restSize, &comparison,
                                     &error, -1, asked ? &asked->places : nullptr);
    std::optional<MemberComparison> compared;
    if (error.isEmpty() && asked) {
        compared
            = ServerMemberComparison::fromRankings(requests.attributeNames(), spec.boundary, asked->fetched->requests,
                                                   0, asked->places, comparison, result.restSize);
        compared->position = options.member;
        compared->row = qint32(asked->member.row);
    }
    if (!error.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli exceed: %1\n").arg(error);
        return ExitFailure;
    }
    const QString sliceText = options.where.describe();
    nlohmann::json members = nlohmann::json::array();
    for (const auto &member : result.members) {
        members.push_back(
            {{"request_id", member.requestId.toStdString()}, {"row", member.row}, {"value", number(member.value)}});
    }
    nlohmann::json document = {{"metric", metricKey(spec.metric).toStdString()},
                               {"unit", metricUnit(spec.metric).toStdString()},
                               {"boundary", boundaryKey(result.boundary).toStdString()},
                               {"percentile", spec.q},
                               {"slice", sliceText.toStdString()},
                               {"slice_requests", result.sliceRequests},
                               {"observed_requests", result.observedRequests},
                               {"threshold", number(result.threshold)},
                               {"set_size", result.setSize},
                               {"rest_size", result.restSize},
                               {"order", ExceedanceSet::orderKey(spec.order).toStdString()},
                               {"members", members},
                               {"attribution", ExceedanceJson::attribution(result.attribution)},
                               {"file", source.display().toStdString()},
                               {"rejected", 0},
                               {"member", compared ? ExceedanceJson::member(*compared) : nlohmann::json()}};
    // Workflows' tails are split over their critical paths from their
    // spans, which stay on the server here: `critical-path URL` loads them.
    const bool workflows = hasSpans(client);
    nlohmann::json skipped = nlohmann::json::array();
    if (options.rankings)
        document.update(ExceedanceJson::rankings(comparison));
    else
        skipped = {"attribute_ranking", "phase_ranking", "member"};
    if (workflows)
        skipped.push_back("critical_path_attribution");
    document["not_computed_on_server"] = skipped;
    if (context.json) {
        context.out << QString::fromStdString(document.dump(2)) << '\n';
        return ExitOk;
    }
    // The text: the figures the server computed, laid out as the file's
    // (members' arrivals counted from the range's first send, asked before
    // anything is printed, so a failure leaves no half report).
    qint64 firstSend = kNoTime;
    if (result.setSize > 0 && !result.members.empty() && !requests.firstSend(&firstSend, &error)) {
        context.err << QStringLiteral("tracelane-cli exceed: %1\n").arg(error);
        return ExitFailure;
    }
    context.out << ExceedanceText::heading({spec, result.boundary, sliceText, result.sliceRequests,
                                            result.observedRequests, result.threshold, result.setSize, result.restSize})
                << '\n';
    if (result.setSize == 0) {
        context.out << QStringLiteral("No request lies above the threshold: nothing to compare.\n");
        return ExitOk;
    }
    context.out << '\n' << ExceedanceText::attribution(result.attribution) << "\n\n";
    if (options.rankings)
        context.out << ExceedanceText::ranking(comparison) << '\n';
    else
        context.out << QStringLiteral("(feature rankings and the member comparison left out: --no-rankings)\n");
    std::vector<ExceedanceText::ListedMember> listed;
    for (const auto &member : result.members) {
        listed.push_back({member.requestId, member.value,
                          member.sendNs == kNoTime || firstSend == kNoTime ? std::numeric_limits<double>::quiet_NaN()
                                                                           : double(member.sendNs - firstSend) / 1e9});
    }
    context.out << '\n' << ExceedanceText::members(spec, listed, result.setSize) << '\n';
    if (compared)
        context.out << '\n' << ExceedanceText::member(*compared, result.setSize) << '\n';
    if (workflows)
        context.out << QStringLiteral("(the slow workflows' critical-path attribution needs their spans: "
                                      "`tracelane-cli critical-path URL` loads them and computes it)\n");
    return ExitOk;
}

int runAnalyseOnClickHouse(const CliContext &context)
{
    ClickHouseSource source;
    if (const int code = openServerSource(context, QStringLiteral("analyse"), &source); code >= 0)
        return code;
    const ClickHouseClient client(source);
    const ServerRequests requests(client);
    ProfileReport report;
    QString error;
    // The label is the table as a person reads it; the workload as for a file.
    if (!ServerProfile::compute(requests, context.boundary, source.display(), QStringLiteral("trace replay"), &report,
                                &error)) {
        context.err << QStringLiteral("tracelane-cli analyse: %1\n").arg(error);
        return ExitFailure;
    }
    if (context.json) {
        nlohmann::json document = ReportJson::profile(report);
        document["file"] = source.display().toStdString();
        document["format"] = "clickhouse";
        // What was pushed is what loaded: the file's rejected records and
        // load notices stayed with the file.
        document["rejected_records"] = nlohmann::json::array();
        document["notices"] = nlohmann::json::array();
        context.out << QString::fromStdString(document.dump(2)) << '\n';
        return ExitOk;
    }
    context.out << ReportText::profile(report) << '\n';
    return ExitOk;
}
