#include "ClickHouseCommand.h"

#include "CliContext.h"

#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/TracePush.h"
#include "clickhouse/TracelaneSchema.h"
#include "report/ReportText.h"

#include <unistd.h>

namespace {

const QString kCluster = QStringLiteral("cluster");
const QString kBatchRows = QStringLiteral("batch-rows");
const QString kClassColumns = QStringLiteral("class-columns");

bool openSource(const CliContext &context, const QString &url, ClickHouseSource *source)
{
    QString error;
    if (!ClickHouseSource::parse(url, source, &error)) {
        context.err << QStringLiteral("tracelane-cli clickhouse: %1\n").arg(error);
        return false;
    }
    if (source->sampleOneIn > 1) {
        context.err << QStringLiteral("tracelane-cli clickhouse: sample= reads a sample of a table; init and push "
                                      "write the whole table (leave it out)\n");
        return false;
    }
    return true;
}

int runInit(const CliContext &context, const QStringList &arguments)
{
    if (arguments.size() != 1) {
        context.err << QStringLiteral("tracelane-cli clickhouse init: expected one URL "
                                      "(clickhouse://HOST:PORT/DB?table=T)\n");
        return ExitUsage;
    }
    ClickHouseSource source;
    if (!openSource(context, arguments.first(), &source))
        return ExitUsage;
    const ClickHouseClient client(source);
    const QString cluster = context.parser.value(kCluster);
    QStringList classKeys;
    for (const QString &key : context.parser.value(kClassColumns).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!key.trimmed().isEmpty() && !classKeys.contains(key.trimmed()))
            classKeys << key.trimmed();
    }
    QString error;
    for (const QString &statement : TracelaneSchema::createStatements(source, cluster, classKeys)) {
        if (!client.run(statement, nullptr, &error)) {
            context.err << QStringLiteral("tracelane-cli clickhouse init: %1\n").arg(error);
            return ExitFailure;
        }
    }
    // Tables that were there already get the class and span columns they lack.
    if (!TracelaneSchema::addClassColumns(client, cluster, classKeys, &error)
        || !TracelaneSchema::addSpanStoreColumns(client, cluster, &error)) {
        context.err << QStringLiteral("tracelane-cli clickhouse init: %1\n").arg(error);
        return ExitFailure;
    }
    context.out << QStringLiteral("%1 and %2 ready (Tracelane schema version %3%4%5)\n")
                       .arg(source.requestsTable(), source.spansTable())
                       .arg(TracelaneSchema::kVersion)
                       .arg(cluster.isEmpty() ? QString() : QStringLiteral(", Distributed over cluster ") + cluster,
                            classKeys.isEmpty()
                                ? QString()
                                : QStringLiteral("; class columns: ") + classKeys.join(QStringLiteral(", ")));
    return ExitOk;
}

int runPush(const CliContext &context, const QStringList &arguments)
{
    if (arguments.size() != 2) {
        context.err << QStringLiteral("tracelane-cli clickhouse push: expected FILE and URL\n");
        return ExitUsage;
    }
    const QString &path = arguments[0];
    ClickHouseSource source;
    if (!openSource(context, arguments[1], &source))
        return ExitUsage;
    int batchRows = TracePush::kDefaultBatchRows;
    if (context.parser.isSet(kBatchRows)) {
        bool ok = false;
        batchRows = context.parser.value(kBatchRows).toInt(&ok);
        if (!ok || batchRows < 1 || batchRows > 1'000'000) {
            context.err << QStringLiteral("tracelane-cli clickhouse push: --batch-rows takes 1 to 1000000\n");
            return ExitUsage;
        }
    }
    QString error;
    // The file's own bytes name its rows, so a second push knows them.
    const QString digest = TracePush::fileDigest(path, &error);
    if (digest.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli clickhouse push: %1 (push reads a regular file: its "
                                      "SHA-256 is what makes a repeated push add nothing)\n")
                           .arg(error);
        return ExitFailure;
    }
    LoadResult load;
    if (!loadForCli(context, path, &load))
        return ExitFailure;
    const auto &store = *load.store;
    const bool terminal = isatty(STDERR_FILENO) != 0;
    const ClickHouseClient client(source);
    const PushResult result = TracePush::push(client, store, digest, batchRows, [&](const PushProgress &progress) {
        if (!terminal)
            return;
        context.err << QStringLiteral("\rPushing %1: batch %2 of %3  ")
                           .arg(path)
                           .arg(progress.batchesDone)
                           .arg(progress.batchesTotal);
        context.err.flush();
    });
    if (terminal)
        context.err << QStringLiteral("\r\x1b[K");
    if (!result.ok) {
        context.err << QStringLiteral("tracelane-cli clickhouse push: %1\n").arg(result.error);
        return ExitFailure;
    }
    context.out << QStringLiteral("%1 -> %2: %3 requests and %4 spans in %5 batches; %6 sent, %7 batches already "
                                  "there (source %8)\n")
                       .arg(path, source.display())
                       .arg(result.requestRows)
                       .arg(result.spanRows)
                       .arg(result.batches)
                       .arg(result.rowsSent)
                       .arg(result.skippedBatches)
                       .arg(digest.left(12));
    if (!store.rejected.empty())
        context.out << ReportText::rejectedSummary(store.rejected, 5) << '\n';
    // Class tables by a categorical attribute read the arrays unless it has
    // a class column: name the ones that could.
    QSet<QString> columns;
    QStringList without;
    if (TracelaneSchema::columnsOf(client, source.table, &columns, &error)) {
        for (const auto &attribute : store.requests.attributes()) {
            if (!attribute.isNumeric() && !columns.contains(TracelaneSchema::classColumn(attribute.name())))
                without << attribute.name();
        }
    }
    if (!without.isEmpty()) {
        context.out << QStringLiteral(
                           "Class tables by %1 read them from the attribute arrays; `tracelane-cli clickhouse "
                           "init URL --class-columns %2` (on every server) gives them columns of their own, "
                           "which is faster on large tables.\n")
                           .arg(without.join(QStringLiteral(", ")), without.join(QLatin1Char(',')));
    }
    return ExitOk;
}

} // namespace

void addClickHouseOptions(QCommandLineParser &parser)
{
    parser.addOption({kCluster,
                      QStringLiteral("clickhouse init: make the tables Distributed over this cluster "
                                     "(run on every server of it)."),
                      QStringLiteral("name")});
    parser.addOption({kClassColumns,
                      QStringLiteral("clickhouse init: keep these categorical attributes (comma-separated) in "
                                     "columns of their own, so class tables by them read no arrays (run on every "
                                     "server; adds them to existing tables too)."),
                      QStringLiteral("keys")});
    parser.addOption(
        {kBatchRows, QStringLiteral("clickhouse push: rows per INSERT (default 50000)."), QStringLiteral("n")});
}

int runClickHouse(const CliContext &context)
{
    QStringList arguments = context.arguments;
    const QString action = arguments.isEmpty() ? QString() : arguments.takeFirst();
    if (action == QLatin1String("init"))
        return runInit(context, arguments);
    if (action == QLatin1String("push"))
        return runPush(context, arguments);
    context.err << QStringLiteral("tracelane-cli clickhouse: expected init URL or push FILE URL\n");
    return ExitUsage;
}
