#include "ServerTableKind.h"

#include "ClickHouseClient.h"

#include <QSet>

namespace ServerTable {

bool kind(const ClickHouseClient &client, ServerTableKind *kind, QString *error)
{
    const ClickHouseSource &source = client.source();
    std::vector<QStringList> rows;
    const QString sql = QStringLiteral("SELECT name FROM system.columns WHERE database = %1 AND table = %2")
                            .arg(clickHouseString(source.database), clickHouseString(source.table));
    if (!client.select(sql, &rows, error, 1))
        return false;
    QSet<QString> columns;
    for (const QStringList &row : rows)
        columns.insert(row.first());
    if (columns.isEmpty())
        *kind = ServerTableKind::Missing;
    else if (columns.contains(QStringLiteral("client_send_ns")) && columns.contains(QStringLiteral("attr_keys")))
        *kind = ServerTableKind::Tracelane;
    else if (columns.contains(QStringLiteral("TraceId")) && columns.contains(QStringLiteral("SpanAttributes"))
             && columns.contains(QStringLiteral("Duration")))
        *kind = ServerTableKind::OtelTraces;
    else
        *kind = ServerTableKind::Unknown;
    return true;
}

} // namespace ServerTable
