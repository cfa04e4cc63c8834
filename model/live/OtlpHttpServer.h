#pragma once

#include "ReceiveLimits.h"
#include "ReceiveStats.h"

#include <QHostAddress>
#include <QObject>

#include <memory>

class LiveQueue;
class QTcpServer;
class QTcpSocket;
class QTimer;

// OTLP/HTTP on a QTcpServer: POST /v1/traces with protobuf or JSON bodies,
// gzip, keep-alive and chunked requests, answered as OtlpExport decides.
// Before a body is read: 404/405 for other paths and methods, 401 when a
// bearer token is set and the request lacks it, 413 when Content-Length is
// over the limit (the body is never read; the connection closes), 429 with
// Retry-After while the queue is full. Accepted batches go to the
// LiveQueue. Lives and answers on the thread it belongs to.
//
// Qt's own QHttpServer (6.4 in Debian) reads a whole body into memory before
// a handler sees the request, so it could not refuse a 100 MB body by its
// Content-Length; it also has no hook for a connection limit or idle
// timeout. This server is ~300 lines and under test.
class OtlpHttpServer : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        ReceiveLimits limits;
        QByteArray bearerToken; // empty: no check
        int maxConnections = 256;
        int idleTimeoutMs = 30'000;
        int retryAfterSeconds = 1;
    };

    OtlpHttpServer(Options options, LiveQueue &queue, ReceiveStats &stats, QObject *parent = nullptr);
    ~OtlpHttpServer() override;

    bool listen(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const;
    void close();

    // Requests answered so far (any status).
    qint64 requestsAnswered() const { return m_sequence; }

private:
    struct Connection;

    void accept();
    void readFrom(QTcpSocket *socket);
    // False when the connection is to close after this answer.
    bool answer(QTcpSocket *socket, Connection &connection);
    void respond(QTcpSocket *socket, int status, const QByteArray &contentType, const QByteArray &body, bool keepAlive,
                 qint64 retryAfter = 0, const QByteArray &extraHeaders = {});
    void sweepIdle();

    Options m_options;
    LiveQueue &m_queue;
    ReceiveStats &m_stats;
    QTcpServer *m_server = nullptr;
    QTimer *m_sweep = nullptr;
    std::map<QTcpSocket *, std::unique_ptr<Connection>> m_connections;
    qint64 m_sequence = 0;
};
