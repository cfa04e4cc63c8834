#pragma once

#include "support/CliRun.h"
#include "support/ClickHouseCluster.h"

#include <QString>
#include <QStringList>

#include <initializer_list>

#include <nlohmann/json.hpp>

// Tracelane tables on a test cluster, made the way a user makes them, and the
// CLI's JSON as a file and a clickhouse:// URL must both give it.
namespace TracelaneTables {

// `clickhouse init` on every shard (with --class-columns when given). The
// first failure's standard error, or empty.
inline QString init(const ClickHouseCluster &cluster, const QString &table, const QString &classColumns = {})
{
    for (int shard = 0; shard < cluster.shardCount(); ++shard) {
        QStringList arguments
            = {QStringLiteral("clickhouse"), QStringLiteral("init"), cluster.tracelaneUrl(table, shard),
               QStringLiteral("--cluster"), QLatin1String(ClickHouseCluster::kCluster)};
        if (!classColumns.isEmpty())
            arguments << QStringLiteral("--class-columns") << classColumns;
        const auto run = runCli(arguments);
        if (run.exitCode != 0)
            return run.err;
    }
    return {};
}

// init(), then `clickhouse push FILE` in small batches so the rows spread
// over the shards. The first failure's standard error, or empty.
inline QString initAndPush(const ClickHouseCluster &cluster, const QString &table, const QString &file,
                           const QString &classColumns = {}, int batchRows = 37)
{
    if (const QString failure = init(cluster, table, classColumns); !failure.isEmpty())
        return failure;
    const auto run = runCli({QStringLiteral("clickhouse"), QStringLiteral("push"), file, cluster.tracelaneUrl(table),
                             QStringLiteral("--batch-rows"), QString::number(batchRows)});
    return run.exitCode == 0 ? QString() : run.err;
}

// The command's JSON without the keys that name its input ("file",
// "rejected") and the `dropped` ones; not an object when it is not JSON.
inline nlohmann::json comparable(const QString &text, std::initializer_list<const char *> dropped = {})
{
    auto document = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (document.is_object()) {
        document.erase("file");
        document.erase("rejected");
        for (const char *key : dropped)
            document.erase(key);
    }
    return document;
}

// A file's `exceed --json` as the server can answer it: the member's rows
// for the per-token figures (gap p95, longest stall) dropped, since
// Tracelane's tables hold no token times.
inline void withoutTokenFigures(nlohmann::json *exceed)
{
    if (!exceed->is_object() || !exceed->contains("member") || !(*exceed)["member"].is_object())
        return;
    auto &features = (*exceed)["member"]["features"];
    nlohmann::json kept = nlohmann::json::array();
    for (const auto &row : features) {
        const auto key = row["feature"].get<std::string>();
        if (key != "gap_p95" && key != "max_stall")
            kept.push_back(row);
    }
    features = kept;
}

} // namespace TracelaneTables
