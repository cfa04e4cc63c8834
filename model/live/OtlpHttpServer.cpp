#include "OtlpHttpServer.h"

#include "HttpRequestReader.h"
#include "LiveQueue.h"
#include "OtlpExport.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

struct OtlpHttpServer::Connection
{
    explicit Connection(qint64 maxBody)
        : reader(maxBody)
    { }

    QByteArray buffer;
    HttpRequestReader reader;
    QElapsedTimer idle;
    bool continueSent = false;
    bool closing = false;
    // After a refusal before the body (413 by Content-Length): bytes of the
    // body still to arrive, read and dropped so the client sees the answer
    // instead of a reset connection.
    qint64 discard = 0;
};

namespace {
// Past this, a refused body is not drained: the connection just closes.
constexpr qint64 kMaxDrainBytes = 256LL * 1024 * 1024;
} // namespace

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 413:
        return "Content Too Large";
    case 415:
        return "Unsupported Media Type";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

qint64 nowNs()
{
    return QDateTime::currentMSecsSinceEpoch() * 1'000'000LL;
}

} // namespace

OtlpHttpServer::OtlpHttpServer(Options options, LiveQueue &queue, ReceiveStats &stats, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_queue(queue)
    , m_stats(stats)
{ }

OtlpHttpServer::~OtlpHttpServer()
{
    close();
}

bool OtlpHttpServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    m_server = new QTcpServer(this);
    m_server->setMaxPendingConnections(m_options.maxConnections);
    connect(m_server, &QTcpServer::newConnection, this, &OtlpHttpServer::accept);
    if (!m_server->listen(address, port)) {
        *error = m_server->errorString();
        return false;
    }
    m_sweep = new QTimer(this);
    connect(m_sweep, &QTimer::timeout, this, &OtlpHttpServer::sweepIdle);
    m_sweep->start(qMax(100, m_options.idleTimeoutMs / 4));
    return true;
}

quint16 OtlpHttpServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

void OtlpHttpServer::close()
{
    if (m_server)
        m_server->close();
    for (auto &[socket, connection] : m_connections) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
    m_connections.clear();
}

void OtlpHttpServer::accept()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        if (int(m_connections.size()) >= m_options.maxConnections) {
            // Over the connection limit: say so, then close.
            respond(socket, 503, "application/json",
                    OtlpExport::statusBody(OtlpExport::Encoding::Json, 14,
                                           QStringLiteral("too many connections; retry later")),
                    false, m_options.retryAfterSeconds);
            socket->disconnectFromHost();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            continue;
        }
        auto connection = std::make_unique<Connection>(m_options.limits.maxBodyBytes);
        connection->idle.start();
        m_connections.emplace(socket, std::move(connection));
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { readFrom(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_connections.erase(socket);
            socket->deleteLater();
        });
    }
}

void OtlpHttpServer::readFrom(QTcpSocket *socket)
{
    const auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    Connection &connection = *it->second;
    connection.idle.restart();
    if (connection.closing) {
        // The answer is out; drop what the client still sends, then close.
        connection.discard -= socket->readAll().size();
        if (connection.discard <= 0)
            socket->disconnectFromHost();
        return;
    }
    connection.buffer += socket->readAll();
    while (true) {
        const auto state = connection.reader.feed(connection.buffer);
        if (state == HttpRequestReader::State::Failed) {
            ++m_sequence;
            const int status = connection.reader.failureStatus();
            m_stats.recordRefusal(status, connection.reader.failureMessage(), connection.buffer.size());
            respond(socket, status, "application/json",
                    OtlpExport::statusBody(OtlpExport::Encoding::Json, status == 413 ? 8 : 3,
                                           connection.reader.failureMessage()),
                    false);
            connection.closing = true;
            const qint64 declared = connection.reader.declaredLength();
            // A client waiting for "100 Continue" sends no body at all.
            const bool bodyComing = !connection.reader.expectsContinue() && declared <= kMaxDrainBytes;
            connection.discard = bodyComing ? declared - connection.buffer.size() : 0;
            connection.buffer.clear();
            if (connection.discard <= 0)
                socket->disconnectFromHost(); // may delete the connection: nothing after this
            return;
        }
        if (state == HttpRequestReader::State::Incomplete) {
            if (connection.reader.headersDone() && connection.reader.expectsContinue() && !connection.continueSent) {
                connection.continueSent = true;
                socket->write("HTTP/1.1 100 Continue\r\n\r\n");
            }
            return;
        }
        const bool keepAlive = answer(socket, connection);
        connection.reader.reset();
        connection.continueSent = false;
        if (!keepAlive) {
            connection.closing = true;
            socket->disconnectFromHost(); // may delete the connection: nothing after this
            return;
        }
    }
}

bool OtlpHttpServer::answer(QTcpSocket *socket, Connection &connection)
{
    const HttpRequestReader &request = connection.reader;
    const bool keepAlive = request.keepAlive();
    const qint64 sequence = ++m_sequence;
    OtlpExport::Encoding encoding = OtlpExport::Encoding::Json;
    OtlpExport::encodingOf(request.header("content-type"), &encoding);
    const qint64 bytes = request.body().size();
    const auto refuse
        = [&](int status, const QString &message, qint64 retryAfter = 0, const QByteArray &extraHeaders = {}) {
              const OtlpExport::Reply reply = OtlpExport::refuse(encoding, status, message, retryAfter);
              m_stats.recordRefusal(status, message, bytes);
              respond(socket, status, reply.contentType, reply.body, keepAlive, retryAfter, extraHeaders);
          };
    QByteArray path = request.path();
    if (const qsizetype query = path.indexOf('?'); query >= 0)
        path.truncate(query);
    if (path != "/v1/traces") {
        refuse(404,
               QStringLiteral("no such path '%1'; OTLP traces go to POST /v1/traces")
                   .arg(QString::fromLatin1(path.left(100))));
        return keepAlive;
    }
    if (request.method() != "POST") {
        refuse(405, QStringLiteral("OTLP traces are sent with POST"), 0, "Allow: POST\r\n");
        return keepAlive;
    }
    if (!m_options.bearerToken.isEmpty()) {
        const QByteArray authorization = request.header("authorization");
        if (authorization != "Bearer " + m_options.bearerToken) {
            refuse(401,
                   authorization.isEmpty() ? QStringLiteral("this receiver needs 'Authorization: Bearer TOKEN'")
                                           : QStringLiteral("wrong bearer token"),
                   0, "WWW-Authenticate: Bearer\r\n");
            return keepAlive;
        }
    }
    if (m_queue.full()) {
        refuse(429,
               QStringLiteral("the receiver holds %1 spans not yet stored; retry after %2 s")
                   .arg(m_queue.bufferedSpans())
                   .arg(m_options.retryAfterSeconds),
               m_options.retryAfterSeconds);
        return keepAlive;
    }
    OtlpExport::Reply reply = OtlpExport::handle(
        {request.header("content-type"), request.header("content-encoding"), request.body(), sequence},
        SpanAdmission(m_options.limits, nowNs()));
    if (reply.status != 200) {
        m_stats.recordRefusal(reply.status, reply.message, bytes);
        respond(socket, reply.status, reply.contentType, reply.body, keepAlive, reply.retryAfterSeconds);
        return keepAlive;
    }
    m_stats.recordBatch(reply.batch, bytes);
    if (!reply.batch.spans.empty())
        m_queue.push(std::move(reply.batch));
    respond(socket, 200, reply.contentType, reply.body, keepAlive);
    return keepAlive;
}

void OtlpHttpServer::respond(QTcpSocket *socket, int status, const QByteArray &contentType, const QByteArray &body,
                             bool keepAlive, qint64 retryAfter, const QByteArray &extraHeaders)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    head += "Content-Type: " + contentType + "\r\n";
    head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    if (retryAfter > 0)
        head += "Retry-After: " + QByteArray::number(retryAfter) + "\r\n";
    head += extraHeaders;
    head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    head += "\r\n";
    socket->write(head + body);
}

void OtlpHttpServer::sweepIdle()
{
    std::vector<QTcpSocket *> idle;
    for (const auto &[socket, connection] : m_connections) {
        if (connection->idle.elapsed() > m_options.idleTimeoutMs)
            idle.push_back(socket);
    }
    for (QTcpSocket *socket : idle)
        socket->abort(); // disconnected() removes it
}
