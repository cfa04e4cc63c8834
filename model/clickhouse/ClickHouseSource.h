#pragma once

#include <QString>
#include <QUrl>
#include <QtGlobal>

#include <limits>

// Where traces live in ClickHouse, as a URL:
//   clickhouse://HOST:PORT/DB?table=T&from=T0&to=T1&timeout=S      (HTTP)
//   clickhouses://HOST:PORT/DB?...                                (HTTPS)
// PORT is the HTTP interface's (8123 when left out, 8443 for https). `from`
// and `to` bound the requests' client send time: integer nanoseconds, or an
// ISO-8601 time (UTC unless it says otherwise). `timeout` is seconds for
// every request (default 30). `max_spans=N` caps the spans a span table
// (the OpenTelemetry Collector's otel_traces) may bring into memory
// (default 5,000,000; more is refused before anything is fetched);
// `where=EXPR` keeps the traces with a span for which the ClickHouse
// expression holds (`ServiceName = 'vllm'`, `SpanAttributes['gen_ai.request.model'] = 'm'`),
// span tables only. `sample=N` keeps one request in N (on a span table, one
// trace in N), picked by a hash of its id: the same requests at every open
// and in every query, whatever the order of the rows, and independent of
// their latency, so the figures are those of a uniform sample (each states
// its n). `ca=PATH` (or TRACELANE_CLICKHOUSE_CA) names a
// PEM file of certificate authorities an https server's certificate may be
// signed by, besides the system's (a cluster's own CA, a self-signed server).
// The user and password never come from the URL
// (a password in a URL ends up in shell history and process lists): they are
// read from TRACELANE_CLICKHOUSE_USER / TRACELANE_CLICKHOUSE_PASSWORD, else
// from the file TRACELANE_CLICKHOUSE_CONFIG names or
// ~/.config/tracelane/clickhouse.conf (`user=` and `password=` lines).
struct ClickHouseSource
{
    static constexpr qint64 kNoBound = std::numeric_limits<qint64>::min();
    // The sparsest sample=N.
    static constexpr qint64 kMostSample = 1'000'000'000;

    QUrl endpoint; // http(s)://host:port/
    QString database = QStringLiteral("default");
    QString table = QStringLiteral("tracelane_requests");
    qint64 from = kNoBound; // client send >= from (ns)
    qint64 to = kNoBound;   // client send < to (ns)
    int timeoutMs = 30'000;
    qint64 maxSpans = 5'000'000;
    qint64 sampleOneIn = 1; // 1: every request
    QString where;          // a span table's filter (SQL over its columns); empty: none
    QString trace;          // one workflow (trace id, lower case) and nothing else; empty: all
    // One row of Tracelane's requests table and nothing else, named by the
    // pushed file's digest and the row's position in it (files pushed into
    // one table may share request ids). Set by code, never by the URL;
    // empty: every row.
    QString rowSource;
    qint64 row = -1;
    QString caFile; // PEM: extra certificate authorities for https
    QString user;
    QString password;

    // The requests table and its spans table, quoted for SQL.
    QString requestsTable() const;
    QString spansTable() const;
    // The condition keeping the sample, over the column holding the id
    // (request_id, TraceId); empty when every row is kept.
    QString sampleSql(const QString &idColumn) const;
    // The condition keeping only trace= (over the same column); empty
    // without one.
    QString traceSql(const QString &idColumn) const;
    // The conditions on Tracelane's requests table: the time range (client
    // send), trace=, the one row and, when `sampled`, the sample; empty for
    // every row.
    QStringList requestConditions(bool sampled = true) const;
    // Shown to people: the URL without credentials (with the time range in
    // integer ns, the sample and the trace, if any: every figure read from
    // it is theirs).
    QString display() const;

    static bool isUrl(const QString &text);
    // One in how many of `population` rows a sample keeps to hold at most
    // `most` of them, with room for the hash's spread (a tenth, and one more
    // than the least), and sparser than `current`.
    static qint64 sampleThatFits(qint64 population, qint64 most, qint64 current = 1);
    // The URL `text` with sample=oneIn (1: without one).
    static QString withSample(const QString &text, qint64 oneIn);
    // The URL `text` with its time range narrowed to the client sends in
    // [from, to) (ns; kNoBound: that side as it was), written as integer
    // ns; empty when `text` is no URL or the ranges do not overlap.
    static QString withinRange(const QString &text, qint64 from, qint64 to);
    // The URL `text` keeping only the workflow (request) `id`.
    static QString withTrace(const QString &text, const QString &id);
    // False with `error` naming the part that is wrong.
    static bool parse(const QString &text, ClickHouseSource *source, QString *error);
};

// `name` quoted as a ClickHouse identifier.
QString clickHouseIdentifier(const QString &name);
// `text` as a ClickHouse string literal.
QString clickHouseString(const QString &text);
