#include "TracelaneSchema.h"

#include "ClickHouseSource.h"
#include "store/Phase.h"

namespace TracelaneSchema {

QString stampColumn(Stamp stamp)
{
    QString name = QString::fromLatin1(stampFieldName(stamp));
    name.chop(3); // "_ms"
    return name + QStringLiteral("_ns");
}

QString absentSql()
{
    return QStringLiteral("(-9223372036854775807 - 1)");
}

QStringList requestColumns()
{
    QStringList columns = {QStringLiteral("schema_version"), QStringLiteral("source"),
                           QStringLiteral("batch"),          QStringLiteral("row"),
                           QStringLiteral("request_id"),     QStringLiteral("source_line"),
                           QStringLiteral("prompt_tokens"),  QStringLiteral("output_tokens")};
    for (int i = 0; i < kStampCount; ++i)
        columns << stampColumn(static_cast<Stamp>(i));
    columns << QStringLiteral("attr_keys") << QStringLiteral("attr_values") << QStringLiteral("num_keys")
            << QStringLiteral("num_values");
    return columns;
}

namespace {

QString requestsBody()
{
    QString body = QStringLiteral("(\n    schema_version UInt16,\n    source String,\n    batch UInt32,\n"
                                  "    row UInt32,\n    request_id String,\n    source_line UInt64,\n"
                                  "    prompt_tokens Int32,\n    output_tokens Int32,\n");
    for (int i = 0; i < kStampCount; ++i)
        body += QStringLiteral("    %1 Int64,\n").arg(stampColumn(static_cast<Stamp>(i)));
    body += QStringLiteral("    attr_keys Array(String),\n    attr_values Array(String),\n"
                           "    num_keys Array(String),\n    num_values Array(Float64)");
    for (const Phase phase : kAllPhases) {
        const QString begin = stampColumn(phaseBegin(phase));
        const QString end = stampColumn(phaseEnd(phase));
        body += QStringLiteral(",\n    %1_ns Int64 ALIAS if(%2 = %4 OR %3 = %4, %4, %3 - %2)")
                    .arg(phaseKey(phase), begin, end, absentSql());
    }
    return body + QStringLiteral("\n)");
}

QString spansBody()
{
    return QStringLiteral("(\n    schema_version UInt16,\n    source String,\n    batch UInt32,\n"
                          "    row UInt32,\n    trace_id String,\n    span_id String,\n"
                          "    parent_span_id String,\n    name String,\n    operation String,\n"
                          "    service String,\n    start_ns Int64,\n    end_ns Int64,\n"
                          "    status UInt8,\n    input_tokens Int32,\n    output_tokens Int32,\n"
                          "    source_line UInt64,\n    attr_keys Array(String),\n    attr_values Array(String)\n)");
}

} // namespace

QStringList createStatements(const ClickHouseSource &source, const QString &cluster)
{
    const QString db = clickHouseIdentifier(source.database);
    const QString requests = source.table;
    const QString spans = source.table + QStringLiteral("_spans");
    const auto mergeTree = [&](const QString &name, const QString &body) {
        return QStringLiteral("CREATE TABLE IF NOT EXISTS %1.%2 %3\nENGINE = MergeTree ORDER BY (source, row)")
            .arg(db, clickHouseIdentifier(name), body);
    };
    QStringList statements = {QStringLiteral("CREATE DATABASE IF NOT EXISTS %1").arg(db)};
    if (cluster.isEmpty()) {
        statements << mergeTree(requests, requestsBody()) << mergeTree(spans, spansBody());
        return statements;
    }
    for (const QString &name : {requests, spans}) {
        const QString local = name + QStringLiteral("_local");
        statements << mergeTree(local, name == requests ? requestsBody() : spansBody());
        statements << QStringLiteral("CREATE TABLE IF NOT EXISTS %1.%2 AS %1.%3\n"
                                     "ENGINE = Distributed(%4, %5, %6, cityHash64(source, batch))")
                          .arg(db, clickHouseIdentifier(name), clickHouseIdentifier(local),
                               clickHouseIdentifier(cluster), db, clickHouseIdentifier(local));
    }
    return statements;
}

} // namespace TracelaneSchema
