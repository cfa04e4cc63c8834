#include "TracelaneSchema.h"

#include "ClickHouseClient.h"
#include "ClickHouseSource.h"
#include "store/Phase.h"

#include <QRegularExpression>
#include <QSet>

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
    const ClickHouseSource &source = client.source();
    QStringList tables;
    if (!cluster.isEmpty())
        tables << source.table + QStringLiteral("_local");
    tables << source.table;
    for (const QString &table : tables) {
        QSet<QString> columns;
        if (!columnsOf(client, table, &columns, error))
            return false;
        for (const QString &key : classKeys) {
            if (columns.contains(classColumn(key)))
                continue;
            const QString alter = QStringLiteral("ALTER TABLE %1.%2 ADD COLUMN %3")
                                      .arg(clickHouseIdentifier(source.database), clickHouseIdentifier(table),
                                           classColumnDefinition(key));
            if (!client.run(alter, nullptr, error))
                return false;
        }
    }
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
