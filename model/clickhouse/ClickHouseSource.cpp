#include "ClickHouseSource.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QUrlQuery>

#include <algorithm>
#include <utility>

namespace {

bool readBound(const QString &text, qint64 *bound)
{
    bool ok = false;
    const qint64 ns = text.toLongLong(&ok);
    if (ok) {
        *bound = ns;
        return true;
    }
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        return false;
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeSpec(Qt::UTC);
    *bound = time.toMSecsSinceEpoch() * 1'000'000;
    return true;
}

// user= and password= lines of a small config file; '#' starts a comment.
void readCredentialsFile(const QString &path, QString *user, QString *password)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals < 0)
            continue;
        const QString key = line.left(equals).trimmed();
        const QString value = line.mid(equals + 1).trimmed();
        if (key == QLatin1String("user") && user->isEmpty())
            *user = value;
        else if (key == QLatin1String("password") && password->isEmpty())
            *password = value;
    }
}

} // namespace

QString clickHouseIdentifier(const QString &name)
{
    QString escaped = name;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('`'), QLatin1String("\\`"));
    return QLatin1Char('`') + escaped + QLatin1Char('`');
}

QString clickHouseString(const QString &text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('\''), QLatin1String("\\'"));
    return QLatin1Char('\'') + escaped + QLatin1Char('\'');
}

QString ClickHouseSource::requestsTable() const
{
    return clickHouseIdentifier(database) + QLatin1Char('.') + clickHouseIdentifier(table);
}

QString ClickHouseSource::spansTable() const
{
    return clickHouseIdentifier(database) + QLatin1Char('.') + clickHouseIdentifier(table + QStringLiteral("_spans"));
}

QString ClickHouseSource::sampleSql(const QString &idColumn) const
{
    // sipHash64, not cityHash64: the span loader splits its parts by
    // cityHash64 of the trace id, and a sample by the same hash would leave
    // some parts empty.
    if (sampleOneIn <= 1)
        return {};
    return QStringLiteral("sipHash64(%1) % %2 = 0").arg(idColumn, QString::number(sampleOneIn));
}

QString ClickHouseSource::traceSql(const QString &idColumn) const
{
    return trace.isEmpty() ? QString() : QStringLiteral("%1 = %2").arg(idColumn, clickHouseString(trace));
}

QStringList ClickHouseSource::requestConditions(bool sampled) const
{
    QStringList conditions;
    if (from != kNoBound)
        conditions << QStringLiteral("client_send_ns >= %1").arg(from);
    if (to != kNoBound)
        conditions << QStringLiteral("client_send_ns < %1").arg(to);
    if (const QString one = traceSql(QStringLiteral("request_id")); !one.isEmpty())
        conditions << one;
    if (!rowSource.isEmpty())
        conditions << QStringLiteral("source = %1 AND row = %2").arg(clickHouseString(rowSource)).arg(row);
    if (const QString sample = sampleSql(QStringLiteral("request_id")); sampled && !sample.isEmpty())
        conditions << sample;
    return conditions;
}

QString ClickHouseSource::display() const
{
    QString text = QStringLiteral("%1://%2:%3/%4?table=%5")
                       .arg(endpoint.scheme() == QLatin1String("https") ? QStringLiteral("clickhouses")
                                                                        : QStringLiteral("clickhouse"),
                            endpoint.host())
                       .arg(endpoint.port())
                       .arg(database, table);
    if (from != kNoBound)
        text += QStringLiteral("&from=%1").arg(from);
    if (to != kNoBound)
        text += QStringLiteral("&to=%1").arg(to);
    if (sampleOneIn > 1)
        text += QStringLiteral("&sample=%1").arg(sampleOneIn);
    if (!trace.isEmpty())
        text += QStringLiteral("&trace=%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(trace)));
    return text;
}

qint64 ClickHouseSource::sampleThatFits(qint64 population, qint64 most, qint64 current)
{
    const qint64 room = std::max<qint64>(1, most - most / 10);
    return std::min(std::max((population + room - 1) / room + 1, current + 1), kMostSample);
}

QString ClickHouseSource::withSample(const QString &text, qint64 oneIn)
{
    QUrl url(text);
    QUrlQuery query(url);
    query.removeAllQueryItems(QStringLiteral("sample"));
    if (oneIn > 1)
        query.addQueryItem(QStringLiteral("sample"), QString::number(oneIn));
    url.setQuery(query);
    return url.toString(QUrl::FullyEncoded);
}

QString ClickHouseSource::withinRange(const QString &text, qint64 from, qint64 to)
{
    ClickHouseSource source;
    QString error;
    if (!parse(text, &source, &error))
        return {};
    if (from != kNoBound && (source.from == kNoBound || from > source.from))
        source.from = from;
    if (to != kNoBound && (source.to == kNoBound || to < source.to))
        source.to = to;
    if (source.from != kNoBound && source.to != kNoBound && source.to <= source.from)
        return {};
    QUrl url(text);
    QUrlQuery query(url);
    for (const auto &[key, bound] :
         {std::pair{QStringLiteral("from"), source.from}, std::pair{QStringLiteral("to"), source.to}}) {
        query.removeAllQueryItems(key);
        if (bound != kNoBound)
            query.addQueryItem(key, QString::number(bound));
    }
    url.setQuery(query);
    return url.toString(QUrl::FullyEncoded);
}

QString ClickHouseSource::withTrace(const QString &text, const QString &id)
{
    QUrl url(text);
    QUrlQuery query(url);
    query.removeAllQueryItems(QStringLiteral("trace"));
    if (!id.isEmpty())
        query.addQueryItem(QStringLiteral("trace"), id);
    url.setQuery(query);
    return url.toString(QUrl::FullyEncoded);
}

bool ClickHouseSource::isUrl(const QString &text)
{
    return text.startsWith(QLatin1String("clickhouse://")) || text.startsWith(QLatin1String("clickhouses://"));
}

bool ClickHouseSource::parse(const QString &text, ClickHouseSource *source, QString *error)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!isUrl(text) || !url.isValid() || url.host().isEmpty()) {
        *error = QStringLiteral("'%1' is not a ClickHouse URL (clickhouse://HOST:PORT/DB?table=T)").arg(text);
        return false;
    }
    if (!url.password().isEmpty()) {
        *error = QStringLiteral("a password in the URL is refused: set TRACELANE_CLICKHOUSE_PASSWORD or "
                                "~/.config/tracelane/clickhouse.conf instead");
        return false;
    }
    const bool secure = url.scheme() == QLatin1String("clickhouses");
    ClickHouseSource result;
    result.endpoint.setScheme(secure ? QStringLiteral("https") : QStringLiteral("http"));
    result.endpoint.setHost(url.host());
    result.endpoint.setPort(url.port(secure ? 8443 : 8123));
    result.endpoint.setPath(QStringLiteral("/"));
    const QString path = url.path().mid(1);
    if (!path.isEmpty())
        result.database = path;
    static const QRegularExpression plainName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1String("table")) {
            result.table = value;
        } else if (key == QLatin1String("from") || key == QLatin1String("to")) {
            qint64 *bound = key == QLatin1String("from") ? &result.from : &result.to;
            if (!readBound(value, bound)) {
                *error = QStringLiteral("%1=%2: not a time (integer ns or ISO-8601)").arg(key, value);
                return false;
            }
        } else if (key == QLatin1String("timeout")) {
            bool ok = false;
            const double seconds = value.toDouble(&ok);
            if (!ok || seconds <= 0 || seconds > 86'400) {
                *error = QStringLiteral("timeout=%1: seconds between 0 and 86400").arg(value);
                return false;
            }
            result.timeoutMs = int(seconds * 1000);
        } else if (key == QLatin1String("max_spans")) {
            bool ok = false;
            const qint64 spans = value.toLongLong(&ok);
            if (!ok || spans <= 0) {
                *error = QStringLiteral("max_spans=%1: a positive number of spans").arg(value);
                return false;
            }
            result.maxSpans = spans;
        } else if (key == QLatin1String("sample")) {
            bool ok = false;
            const qint64 oneIn = value.toLongLong(&ok);
            if (!ok || oneIn <= 0 || oneIn > kMostSample) {
                *error = QStringLiteral("sample=%1: keep one request in N, N a whole number from 1 to %2")
                             .arg(value, QString::number(kMostSample));
                return false;
            }
            result.sampleOneIn = oneIn;
        } else if (key == QLatin1String("where")) {
            result.where = value.trimmed();
        } else if (key == QLatin1String("trace")) {
            result.trace = value.trimmed().toLower();
            if (result.trace.isEmpty() || result.trace.size() > 256) {
                *error = QStringLiteral("trace=%1: one workflow's trace id (a request id on Tracelane's tables), "
                                        "1 to 256 characters")
                             .arg(value);
                return false;
            }
        } else if (key == QLatin1String("ca")) {
            result.caFile = value;
        } else {
            *error = QStringLiteral(
                         "unknown URL parameter '%1' (table, from, to, timeout, max_spans, sample, where, trace, ca)")
                         .arg(key);
            return false;
        }
    }
    if (!plainName.match(result.database).hasMatch() || !plainName.match(result.table).hasMatch()) {
        *error = QStringLiteral("database and table names are letters, digits and '_': '%1', '%2'")
                     .arg(result.database, result.table);
        return false;
    }
    if (result.caFile.isEmpty())
        result.caFile = qEnvironmentVariable("TRACELANE_CLICKHOUSE_CA");
    if (!result.caFile.isEmpty()) {
        if (!secure) {
            *error = QStringLiteral("ca=%1 is for https: write clickhouses://").arg(result.caFile);
            return false;
        }
        if (!QFile::exists(result.caFile)) {
            *error = QStringLiteral("ca=%1: no such file").arg(result.caFile);
            return false;
        }
        if (QSslCertificate::fromPath(result.caFile, QSsl::Pem).isEmpty()) {
            *error = QStringLiteral("ca=%1: no PEM certificate in it").arg(result.caFile);
            return false;
        }
    }
    result.user = url.userName();
    if (result.user.isEmpty())
        result.user = qEnvironmentVariable("TRACELANE_CLICKHOUSE_USER");
    result.password = qEnvironmentVariable("TRACELANE_CLICKHOUSE_PASSWORD");
    QString file = qEnvironmentVariable("TRACELANE_CLICKHOUSE_CONFIG");
    if (file.isEmpty())
        file = QDir::homePath() + QStringLiteral("/.config/tracelane/clickhouse.conf");
    readCredentialsFile(file, &result.user, &result.password);
    *source = result;
    return true;
}
