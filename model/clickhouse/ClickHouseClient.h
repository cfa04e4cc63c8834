#pragma once

#include "ClickHouseSource.h"

#include <QByteArray>
#include <QStringList>

#include <atomic>
#include <functional>
#include <vector>

// ClickHouse's HTTP interface, one blocking call at a time (a caller off the
// GUI thread, or the CLI). Every call has a deadline (the source's timeout,
// also sent as max_execution_time so the server stops too) and honours a
// cancel flag; failures come back as one sentence naming the server:
// unreachable, refused, timed out, or the server's own message (a missing
// table, a syntax error).
class ClickHouseClient
{
public:
    explicit ClickHouseClient(ClickHouseSource source, const std::atomic<bool> *cancel = nullptr);
    // `cancelled` is polled while a call waits (a loader's own cancel test).
    ClickHouseClient(ClickHouseSource source, std::function<bool()> cancelled);

    const ClickHouseSource &source() const { return m_source; }

    // A client of the same source whose calls also stop when `alsoStop`
    // says so (a fetch run ahead that its reader no longer wants).
    ClickHouseClient stoppingAlsoWhen(std::function<bool()> alsoStop) const;

    // Runs `sql`; with `data`, `sql` goes in the URL and `data` is the body
    // (an INSERT's rows). Inserts through a Distributed table return when
    // every shard has its rows.
    bool run(const QString &sql, QByteArray *answer, QString *error, const QByteArray &data = {}) const;

    // A SELECT's rows in TabSeparated, fields unescaped; `columns` when set
    // is how many fields every row must have (a malformed row is an error
    // naming its number).
    bool select(const QString &sql, std::vector<QStringList> *rows, QString *error, int columns = -1) const;

    // One field of TabSeparated output unescaped.
    static QString unescape(QByteArrayView field);

private:
    ClickHouseSource m_source;
    std::function<bool()> m_cancelled;
};
