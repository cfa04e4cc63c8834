#pragma once

#include "store/Stamp.h"

#include <QSet>
#include <QString>
#include <QStringList>

struct ClickHouseSource;

class ClickHouseClient;

// Tracelane's own tables in ClickHouse (CLICKHOUSE-SCHEMA.md beside this file
// is the contract): a requests table and its spans table, ns as Int64, class
// attributes and span attributes as parallel key/value arrays. Plain types and
// MergeTree only, so the same DDL runs from Debian's 18.16 to current servers.
// Version 2 adds optional class columns: a categorical attribute's value in a
// String column of its own, computed by the server from the arrays (DEFAULT),
// so a class table by it reads one short column instead of two arrays.
// Version 3 adds to the spans table what the desktop store holds of a span
// beyond version 2's columns (kind, category, flags, the parent's row, the
// resource and scope, events, edges, model-call stamps and token times), so
// a read gives back the store the push sent: the workflow view and critical
// paths work from the table as from the file.
namespace TracelaneSchema {

inline constexpr int kVersion = 3;
// The first version whose span rows hold the whole span (see above).
inline constexpr int kSpanStoreVersion = 3;

// "client_send_ns", ... : the column of each of the eight stamps.
QString stampColumn(Stamp stamp);
// SQL for "this stamp was not observed" (kNoTime).
QString absentSql();

// Statements that create the tables of `source` if they are missing. With a
// cluster name: each server gets <table>_local and <table>_spans_local
// (MergeTree) and the names themselves become Distributed tables over the
// cluster, sharded by (source, batch) so a batch lands whole on one shard;
// run it on every server of the cluster.
QStringList createStatements(const ClickHouseSource &source, const QString &cluster, const QStringList &classKeys = {});

// A row's raw class value of the categorical attribute `key`: '=' and its
// text, or '' when the row lacks it (ServerRequests' class codes map it).
QString classValueSql(const QString &key);
// The class column holding classValueSql(key): "class_region", or
// "class_x_" and the key's UTF-8 in hex when the key is not a plain name.
QString classColumn(const QString &key);
// Adds the class columns of `classKeys` that the tables of `source` lack (to
// <table>_local, then to the Distributed table, with a cluster), so init can
// add them to tables that already hold rows: the server computes them for
// old rows when it reads them (merges write them).
bool addClassColumns(const ClickHouseClient &client, const QString &cluster, const QStringList &classKeys,
                     QString *error);
// Adds version 3's span columns that <table>_spans lacks (tables made by an
// older init), the same way: rows pushed before keep their version number,
// and a read does not rebuild spans from them.
bool addSpanStoreColumns(const ClickHouseClient &client, const QString &cluster, QString *error);
// Whether <table>_spans has version 3's span columns (a push needs them).
bool hasSpanStoreColumns(const ClickHouseClient &client, QString *error, bool *has);
// The names of the columns of `table` in the client's database (none when
// the table is missing).
bool columnsOf(const ClickHouseClient &client, const QString &table, QSet<QString> *columns, QString *error);

// The requests table's columns an INSERT fills, in order (JSONEachRow keys).
QStringList requestColumns();

} // namespace TracelaneSchema
