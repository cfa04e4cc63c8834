#include "ClickHouseClient.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSslConfiguration>
#include <QSslError>
#include <QSslSocket>
#include <QTimer>
#include <QUrlQuery>

namespace {

// "Code: 60, e.displayText() = DB::Exception: Table x doesn't exist., e.what() = ..."
// (18.16) or "Code: 60. DB::Exception: Table x does not exist. (UNKNOWN_TABLE)" (current).
QString serverMessage(const QByteArray &body)
{
    const QString text = QString::fromUtf8(body).trimmed();
    static const QRegularExpression old(QStringLiteral("DB::Exception: (.*?)(?:, e\\.what\\(\\)|$)"),
                                        QRegularExpression::DotMatchesEverythingOption);
    const auto match = old.match(text);
    QString message = match.hasMatch() ? match.captured(1).trimmed() : text;
    if (message.size() > 600)
        message = message.left(600) + QStringLiteral("…");
    return message;
}

} // namespace

ClickHouseClient::ClickHouseClient(ClickHouseSource source, const std::atomic<bool> *cancel)
    : m_source(std::move(source))
{
    if (cancel)
        m_cancelled = [cancel] { return cancel->load(); };
}

ClickHouseClient::ClickHouseClient(ClickHouseSource source, std::function<bool()> cancelled)
    : m_source(std::move(source))
    , m_cancelled(std::move(cancelled))
{ }

ClickHouseClient ClickHouseClient::stoppingAlsoWhen(std::function<bool()> alsoStop) const
{
    return ClickHouseClient(m_source,
                            [own = m_cancelled, also = std::move(alsoStop)] { return (own && own()) || also(); });
}

bool ClickHouseClient::run(const QString &sql, QByteArray *answer, QString *error, const QByteArray &data) const
{
    QUrl url = m_source.endpoint;
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("max_execution_time"), QString::number(std::max(1, m_source.timeoutMs / 1000)));
    if (!data.isEmpty()) {
        query.addQueryItem(QStringLiteral("insert_distributed_sync"), QStringLiteral("1"));
        query.addQueryItem(QStringLiteral("query"), QString::fromUtf8(QUrl::toPercentEncoding(sql)));
    }
    url.setQuery(query);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("text/plain; charset=utf-8"));
    request.setTransferTimeout(m_source.timeoutMs);
    if (!m_source.user.isEmpty()) {
        const QByteArray pair = (m_source.user + QLatin1Char(':') + m_source.password).toUtf8();
        request.setRawHeader("Authorization", "Basic " + pair.toBase64());
    }
    const QString where
        = QStringLiteral("ClickHouse at %1:%2").arg(m_source.endpoint.host()).arg(m_source.endpoint.port());
    const bool secure = m_source.endpoint.scheme() == QLatin1String("https");
    if (secure) {
        if (!QSslSocket::supportsSsl()) {
            *error = QStringLiteral("cannot reach %1 over https: this Qt has no TLS backend (%2)")
                         .arg(where, QSslSocket::activeBackend());
            return false;
        }
        if (!m_source.caFile.isEmpty()) {
            QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
            tls.addCaCertificates(QSslCertificate::fromPath(m_source.caFile, QSsl::Pem));
            request.setSslConfiguration(tls);
        }
    }
    QElapsedTimer clock;
    clock.start();
    QNetworkAccessManager network;
    network.setAutoDeleteReplies(false);
    QNetworkReply *reply = network.post(request, data.isEmpty() ? sql.toUtf8() : data);
    QEventLoop loop;
    bool timedOut = false;
    bool cancelled = false;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (m_cancelled && m_cancelled()) {
            cancelled = true;
            reply->abort();
        }
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QStringList tlsErrors;
    QObject::connect(reply, &QNetworkReply::sslErrors, &loop, [&](const QList<QSslError> &errors) {
        for (const QSslError &problem : errors)
            tlsErrors << problem.errorString();
    });
    deadline.start(m_source.timeoutMs);
    poll.start(50);
    if (!reply->isFinished())
        loop.exec();
    const QByteArray body = reply->isOpen() ? reply->readAll() : QByteArray();
    const auto status = reply->error();
    const int http = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    bool ok = false;
    if (cancelled) {
        *error = QStringLiteral("cancelled");
    } else if (timedOut || status == QNetworkReply::TimeoutError
               || (status == QNetworkReply::OperationCanceledError && !cancelled)) {
        *error = QStringLiteral("%1 did not answer within %2 s (raise it with ?timeout=SECONDS)")
                     .arg(where)
                     .arg(m_source.timeoutMs / 1000.0);
    } else if (http >= 400 || (status != QNetworkReply::NoError && !body.isEmpty())) {
        *error = QStringLiteral("%1: %2").arg(where, serverMessage(body));
    } else if (status == QNetworkReply::SslHandshakeFailedError || !tlsErrors.isEmpty()) {
        tlsErrors.removeDuplicates();
        *error = QStringLiteral("cannot reach %1 over https: %2. If its certificate is signed by your own "
                                "authority, name that authority's PEM file with ?ca=PATH or TRACELANE_CLICKHOUSE_CA")
                     .arg(where, tlsErrors.isEmpty() ? reply->errorString() : tlsErrors.join(QStringLiteral("; ")));
    } else if (status == QNetworkReply::ConnectionRefusedError) {
        *error = QStringLiteral("cannot connect to %1: connection refused (is the server running, and is %2 "
                                "its HTTP port?)")
                     .arg(where)
                     .arg(m_source.endpoint.port());
    } else if (status != QNetworkReply::NoError) {
        *error = QStringLiteral("cannot reach %1: %2").arg(where, reply->errorString());
    } else {
        ok = true;
        if (answer)
            *answer = body;
    }
    delete reply;
    // TRACELANE_CLICKHOUSE_LOG=1: every statement (its first 2,000
    // characters; =2: whole) and its time on stderr.
    static const int log = qEnvironmentVariableIntValue("TRACELANE_CLICKHOUSE_LOG");
    if (log > 0)
        qInfo("clickhouse %lld ms: %s", qint64(clock.elapsed()), qPrintable(log > 1 ? sql : sql.left(2000)));
    return ok;
}

QString ClickHouseClient::unescape(QByteArrayView field)
{
    QByteArray out;
    out.reserve(field.size());
    for (qsizetype i = 0; i < field.size(); ++i) {
        const char c = field[i];
        if (c != '\\' || i + 1 == field.size()) {
            out += c;
            continue;
        }
        const char next = field[++i];
        switch (next) {
        case 't':
            out += '\t';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case '0':
            out += '\0';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        default:
            out += next;
        }
    }
    return QString::fromUtf8(out);
}

bool ClickHouseClient::select(const QString &sql, std::vector<QStringList> *rows, QString *error, int columns) const
{
    QByteArray body;
    if (!run(sql + QStringLiteral(" FORMAT TabSeparated"), &body, error))
        return false;
    rows->clear();
    qsizetype start = 0;
    int number = 0;
    while (start < body.size()) {
        qsizetype end = body.indexOf('\n', start);
        if (end < 0)
            end = body.size();
        const QByteArrayView line(body.constData() + start, end - start);
        start = end + 1;
        ++number;
        QStringList fields;
        qsizetype fieldStart = 0;
        for (qsizetype i = 0; i <= line.size(); ++i) {
            if (i == line.size() || line[i] == '\t') {
                fields << unescape(line.sliced(fieldStart, i - fieldStart));
                fieldStart = i + 1;
            }
        }
        if (columns >= 0 && fields.size() != columns) {
            *error = QStringLiteral("ClickHouse answered a malformed row %1: %2 fields where %3 were expected "
                                    "(is %4 a Tracelane table of this schema version?)")
                         .arg(number)
                         .arg(fields.size())
                         .arg(columns)
                         .arg(m_source.requestsTable());
            return false;
        }
        rows->push_back(std::move(fields));
    }
    return true;
}
