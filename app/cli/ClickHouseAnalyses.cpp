#include "ClickHouseAnalyses.h"

#include "ClassOptions.h"
#include "CliContext.h"

#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerClassTable.h"
#include "clickhouse/ServerRequests.h"
#include "report/ClassTableJson.h"
#include "report/ClassTableText.h"

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
    if (!options->where.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli %1: --where is not computed on ClickHouse yet; bound the "
                                      "rows with the URL's from= and to=\n")
                           .arg(command);
        return ExitUsage;
    }
    QString error;
    if (!ClickHouseSource::parse(context.arguments.first(), source, &error)) {
        context.err << QStringLiteral("tracelane-cli %1: %2\n").arg(command, error);
        return ExitUsage;
    }
    return -1;
}

} // namespace

bool isClickHouseArgument(const QString &argument)
{
    return ClickHouseSource::isUrl(argument);
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
    if (!requests.open(&error)) {
        context.err << QStringLiteral("tracelane-cli slice: %1\n").arg(error);
        return ExitFailure;
    }
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
