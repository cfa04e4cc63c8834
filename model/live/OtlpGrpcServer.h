#pragma once

#include "ReceiveLimits.h"

#include <QByteArray>
#include <QHostAddress>
#include <QString>

#include <memory>

class LiveQueue;
class ReceiveStats;

// OTLP/gRPC: TraceService/Export (unary, as every OTLP exporter calls it)
// on gRPC's own threads, answered by the same rules as OTLP/HTTP
// (OtlpExport::handle on the request's bytes): OK with an
// ExportTraceServiceResponse whose partial_success counts the rejected
// spans, INVALID_ARGUMENT for a malformed message, UNAUTHENTICATED without
// the bearer token (metadata `authorization: Bearer TOKEN`),
// RESOURCE_EXHAUSTED with a google.rpc.RetryInfo while the LiveQueue is full
// (the OTLP/gRPC back-pressure answer, retryable) and, from gRPC itself,
// RESOURCE_EXHAUSTED for a message over maxBodyBytes. gzip-compressed
// messages are inflated by gRPC.
class OtlpGrpcServer
{
public:
    struct Options
    {
        ReceiveLimits limits;
        QByteArray bearerToken; // empty: no check
        int retryAfterSeconds = 1;
        // The threads answering calls run at ThreadPriority's background
        // nice (a window's receiver yields to its interface).
        bool backgroundPriority = false;
    };

    OtlpGrpcServer(Options options, LiveQueue &queue, ReceiveStats &stats);
    ~OtlpGrpcServer();
    OtlpGrpcServer(const OtlpGrpcServer &) = delete;
    OtlpGrpcServer &operator=(const OtlpGrpcServer &) = delete;

    // Port 0 picks a free one (port() says which).
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const { return m_port; }
    // Stops accepting; calls in flight get `graceMs` to finish.
    void close(int graceMs = 2000);

private:
    class Service;

    Options m_options;
    LiveQueue &m_queue;
    ReceiveStats &m_stats;
    std::unique_ptr<Service> m_service;
    struct Running;
    std::unique_ptr<Running> m_running;
    quint16 m_port = 0;
};
