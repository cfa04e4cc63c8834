#pragma once

#include "store/TraceStore.h"

#include <QString>

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

// Tracelane's spans table (schema version 3, clickhouse/CLICKHOUSE-SCHEMA.md)
// read back into the desktop store as the push sent it: each row is a span as
// the file's load left it (kind, category, flags, parent, resource, scope,
// attributes, events, edges, model-call stamps and token times), so the
// workflows, their critical paths and their summaries into request lanes are
// the file's. Nothing is interpreted again: the rules ran when the file was
// loaded.
//
// Rows come ordered by (source, row), whole traces only. A row that cannot be
// a span (a field of the wrong type, arrays of unequal length, a detail that
// is not the push's JSON, times that run backwards) is rejected with its line
// in the pushed file and the column; the rest loads. A parent or edge whose
// row did not load is dropped and said in a notice.
class TracelaneSpanRows
{
public:
    TracelaneSpanRows(TraceStore &store, QString file);

    // The SELECT list read() expects (FORMAT TabSeparated).
    static QString columnsSql();
    // The resources and scopes the spans of `table` in `where` use, one per
    // row, in index order (JSONEachRow), for addResource() and addScope().
    static QString resourcesSql(const QString &table, const QString &where);
    static QString scopesSql(const QString &table, const QString &where);

    // One row of resourcesSql() / scopesSql(); all of them before the spans.
    void addResource(std::string_view line);
    void addScope(std::string_view line);

    void read(std::string_view line, qint64 fetchRow);

    // Resolves parents and edges, groups the rows into workflows and
    // summarises each into a request lane (WorkflowSummary), as a load does.
    void finish();

private:
    struct Pending
    {
        qint32 row = -1;
        qint64 parentRow = -1;
    };
    struct PendingEdge
    {
        qint64 order = 0;
        qint32 from = -1;
        qint64 toRow = -1;
        SpanTable::EdgeKind kind = SpanTable::EdgeKind::Dependency;
        quint32 sourceIndex = 0;
    };
    struct PendingLink
    {
        qint64 order = 0;
        qint32 span = -1;
        std::string traceId;
        std::string spanId;
        SpanTable::EdgeKind kind = SpanTable::EdgeKind::Link;
    };

    quint32 sourceIndex(const std::string &source);
    static quint64 key(quint32 source, qint64 row) { return (quint64(source) << 40) ^ quint64(row); }
    void reject(qint64 line, const std::string &traceId, const std::string &spanId, const QString &field,
                const QString &reason);
    // A resource or scope row that cannot be read: `what` it is not.
    void rejectOwner(const QString &field, const QString &what);

    TraceStore &m_store;
    SpanTable &m_table;
    QString m_file;
    std::map<std::string, quint32> m_sources;
    std::map<std::pair<quint32, qint32>, qint32> m_resources; // (source, pushed index) -> index here
    std::map<std::pair<quint32, qint32>, qint32> m_scopes;
    std::unordered_map<quint64, qint32> m_rowOf; // key(source, pushed row) -> row here
    std::vector<quint32> m_sourceOfRow;
    std::vector<Pending> m_parents;
    std::vector<PendingEdge> m_edges;
    std::vector<PendingLink> m_links;
    // Workflows as they are met: each trace's rows are consecutive.
    std::vector<std::string> m_traceIds;
    std::vector<qint32> m_firstRow;
    std::unordered_set<std::string> m_tracesSeen; // source index and trace id
    std::string m_lastTrace;
    // The row being read; kept to reuse their storage.
    std::vector<std::string_view> m_fields;
    std::vector<std::string> m_keys;
    std::vector<std::string> m_values;
    std::vector<qint64> m_numeric;
};
