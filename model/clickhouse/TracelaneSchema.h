#pragma once

#include "store/Stamp.h"

#include <QString>
#include <QStringList>

struct ClickHouseSource;

// Tracelane's own tables in ClickHouse (CLICKHOUSE-SCHEMA.md beside this file
// is the contract): a requests table and its spans table, ns as Int64, class
// attributes and span attributes as parallel key/value arrays. Plain types and
// MergeTree only, so the same DDL runs from Debian's 18.16 to current servers.
namespace TracelaneSchema {

inline constexpr int kVersion = 1;

// "client_send_ns", ... : the column of each of the eight stamps.
QString stampColumn(Stamp stamp);
// SQL for "this stamp was not observed" (kNoTime).
QString absentSql();

// Statements that create the tables of `source` if they are missing. With a
// cluster name: each server gets <table>_local and <table>_spans_local
// (MergeTree) and the names themselves become Distributed tables over the
// cluster, sharded by (source, batch) so a batch lands whole on one shard;
// run it on every server of the cluster.
QStringList createStatements(const ClickHouseSource &source, const QString &cluster);

// The requests table's columns an INSERT fills, in order (JSONEachRow keys).
QStringList requestColumns();

} // namespace TracelaneSchema
