#include "TracelaneSchema.h"

#include "ClickHouseClient.h"
#include "ClickHouseSource.h"
#include "store/Phase.h"

#include <QRegularExpression>
#include <QSet>

#include <utility>
#include <vector>

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

QString classValueSql(const QString &key)
{
    const QString literal = clickHouseString(key);
    return QStringLiteral("if(has(attr_keys, %1), concat('=', attr_values[indexOf(attr_keys, %1)]), '')").arg(literal);
}

QString classColumn(const QString &key)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_]*$"));
    if (plain.match(key).hasMatch() && !key.startsWith(QStringLiteral("x_")))
        return QStringLiteral("class_") + key;
    return QStringLiteral("class_x_") + QString::fromLatin1(key.toUtf8().toHex());
}

namespace {

QString classColumnDefinition(const QString &key)
{
    return QStringLiteral("%1 String DEFAULT %2").arg(clickHouseIdentifier(classColumn(key)), classValueSql(key));
}

QString requestsBody(const QStringList &classKeys)
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
    for (const QString &key : classKeys)
        body += QStringLiteral(",\n    ") + classColumnDefinition(key);
    return body + QStringLiteral("\n)");
}

// Version 3's span columns: what the desktop store holds of a span beyond
// version 2's, so a read gives back the store the push sent.
const std::vector<std::pair<const char *, const char *>> &spanStoreColumns()
{
    static const std::vector<std::pair<const char *, const char *>> columns = {
        {"kind", "UInt8"},
        {"category", "UInt8"},
        {"flags", "UInt8"},
        {"parent_row", "Int64 DEFAULT -1"},
        {"attr_numeric", "Array(UInt8)"},
        {"resource", "Int32 DEFAULT -1"},
        {"resource_keys", "Array(String)"},
        {"resource_values", "Array(String)"},
        {"resource_numeric", "Array(UInt8)"},
        {"scope", "Int32 DEFAULT -1"},
        {"scope_name", "String"},
        {"scope_version", "String"},
        {"scope_keys", "Array(String)"},
        {"scope_values", "Array(String)"},
        {"scope_numeric", "Array(UInt8)"},
        {"detail", "String"},
    };
    return columns;
}

QString spansBody()
{
    QString body
        = QStringLiteral("(\n    schema_version UInt16,\n    source String,\n    batch UInt32,\n"
                         "    row UInt32,\n    trace_id String,\n    span_id String,\n"
                         "    parent_span_id String,\n    name String,\n    operation String,\n"
                         "    service String,\n    start_ns Int64,\n    end_ns Int64,\n"
                         "    status UInt8,\n    input_tokens Int32,\n    output_tokens Int32,\n"
                         "    source_line UInt64,\n    attr_keys Array(String),\n    attr_values Array(String)");
    for (const auto &[name, type] : spanStoreColumns())
        body += QStringLiteral(",\n    %1 %2").arg(QLatin1String(name), QLatin1String(type));
    return body + QStringLiteral("\n)");
}

// The tables an ALTER must reach: with a cluster, this server's local table
// first, then the Distributed one over it.
QStringList alterTargets(const QString &table, const QString &cluster)
{
    QStringList tables;
    if (!cluster.isEmpty())
        tables << table + QStringLiteral("_local");
    tables << table;
    return tables;
}

// Adds the `definitions` (name -> "name TYPE ...") that `table` lacks.
bool addMissingColumns(const ClickHouseClient &client, const QStringList &tables,
                       const std::vector<std::pair<QString, QString>> &definitions, QString *error)
{
    const ClickHouseSource &source = client.source();
    for (const QString &table : tables) {
        QSet<QString> columns;
        if (!columnsOf(client, table, &columns, error))
            return false;
        for (const auto &[name, definition] : definitions) {
            if (columns.contains(name))
                continue;
            const QString alter
                = QStringLiteral("ALTER TABLE %1.%2 ADD COLUMN %3")
                      .arg(clickHouseIdentifier(source.database), clickHouseIdentifier(table), definition);
            if (!client.run(alter, nullptr, error))
                return false;
        }
    }
    return true;
}

} // namespace

QStringList createStatements(const ClickHouseSource &source, const QString &cluster, const QStringList &classKeys)
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
        statements << mergeTree(requests, requestsBody(classKeys)) << mergeTree(spans, spansBody());
        return statements;
    }
    for (const QString &name : {requests, spans}) {
        const QString local = name + QStringLiteral("_local");
        statements << mergeTree(local, name == requests ? requestsBody(classKeys) : spansBody());
        statements << QStringLiteral("CREATE TABLE IF NOT EXISTS %1.%2 AS %1.%3\n"
                                     "ENGINE = Distributed(%4, %5, %6, cityHash64(source, batch))")
                          .arg(db, clickHouseIdentifier(name), clickHouseIdentifier(local),
                               clickHouseIdentifier(cluster), db, clickHouseIdentifier(local));
    }
    return statements;
}

bool addClassColumns(const ClickHouseClient &client, const QString &cluster, const QStringList &classKeys,
                     QString *error)
{
    std::vector<std::pair<QString, QString>> definitions;
    for (const QString &key : classKeys)
        definitions.emplace_back(classColumn(key), classColumnDefinition(key));
    return addMissingColumns(client, alterTargets(client.source().table, cluster), definitions, error);
}

bool addSpanStoreColumns(const ClickHouseClient &client, const QString &cluster, QString *error)
{
    std::vector<std::pair<QString, QString>> definitions;
    for (const auto &[name, type] : spanStoreColumns())
        definitions.emplace_back(QLatin1String(name),
                                 QStringLiteral("%1 %2").arg(QLatin1String(name), QLatin1String(type)));
    return addMissingColumns(client, alterTargets(client.source().table + QStringLiteral("_spans"), cluster),
                             definitions, error);
}

bool hasSpanStoreColumns(const ClickHouseClient &client, QString *error, bool *has)
{
    QSet<QString> columns;
    if (!columnsOf(client, client.source().table + QStringLiteral("_spans"), &columns, error))
        return false;
    *has = columns.contains(QStringLiteral("detail"));
    return true;
}

bool columnsOf(const ClickHouseClient &client, const QString &table, QSet<QString> *columns, QString *error)
{
    std::vector<QStringList> rows;
    if (!client.select(QStringLiteral("SELECT name FROM system.columns WHERE database = %1 AND table = %2")
                           .arg(clickHouseString(client.source().database), clickHouseString(table)),
                       &rows, error, 1))
        return false;
    columns->clear();
    for (const QStringList &row : rows)
        columns->insert(row.first());
    return true;
}

} // namespace TracelaneSchema
