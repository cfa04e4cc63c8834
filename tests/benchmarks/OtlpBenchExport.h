#pragma once

// What the live OTLP benchmarks send: agent-shaped export requests in
// protobuf and a blocking OTLP/HTTP keep-alive exporter (shared by
// tracelane-bench-receive and tracelane-bench-live-gui).

#include "proto/otlp_trace.pb.h"

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QTcpSocket>

#include <string>

namespace otlp = opentelemetry::proto::collector::trace::v1;

namespace OtlpBench {

inline qint64 nowNs()
{
    return QDateTime::currentMSecsSinceEpoch() * 1'000'000LL;
}

inline std::string bytesOf(quint64 high, quint64 low, int size)
{
    std::string out(size_t(size), '\0');
    for (int i = 0; i < size; ++i) {
        const quint64 word = i < size - 8 ? high : low;
        const int shift = 8 * ((size - 1 - i) % 8);
        out[size_t(i)] = char((word >> shift) & 0xff);
    }
    return out;
}

inline void setString(otlp::KeyValue *kv, const char *key, const std::string &value)
{
    kv->set_key(key);
    kv->mutable_value()->set_string_value(value);
}

inline void setDouble(otlp::KeyValue *kv, const char *key, double value)
{
    kv->set_key(key);
    kv->mutable_value()->set_double_value(value);
}

// `spans` spans (a multiple of 4) as agent workflows of 4: invoke_agent root,
// retrieval, chat (an llm_request with gen_ai.latency.*), tool. Span ids are
// exporter << 48 | sequence: unique across the run.
inline std::string exportBody(int exporter, quint64 &nextSpan, int spans, const char *service)
{
    otlp::ExportTraceServiceRequest request;
    auto *resourceSpans = request.add_resource_spans();
    setString(resourceSpans->mutable_resource()->add_attributes(), "service.name", service);
    auto *scopeSpans = resourceSpans->add_scope_spans();
    scopeSpans->mutable_scope()->set_name("tracelane-bench");
    const qint64 now = nowNs();
    for (int t = 0; t < spans / 4; ++t) {
        const quint64 rootId = (quint64(exporter + 1) << 48) | nextSpan;
        const std::string traceId = bytesOf(quint64(exporter + 1), nextSpan, 16);
        const qint64 start = now - 3'000'000'000LL;
        const char *names[] = {"invoke_agent adviser", "retrieval policies", "chat llama", "execute_tool lookup"};
        for (int s = 0; s < 4; ++s) {
            auto *span = scopeSpans->add_spans();
            const quint64 id = (quint64(exporter + 1) << 48) | nextSpan++;
            span->set_trace_id(traceId);
            span->set_span_id(bytesOf(0, id, 8));
            if (s > 0)
                span->set_parent_span_id(bytesOf(0, rootId, 8));
            span->set_name(names[s]);
            span->set_kind(s == 0 ? 1 : 3);
            const qint64 begin = s == 0 ? start : start + (s - 1) * 900'000'000LL + 10'000'000;
            const qint64 end = s == 0 ? start + 2'800'000'000LL : begin + 850'000'000;
            span->set_start_time_unix_nano(quint64(begin));
            span->set_end_time_unix_nano(quint64(end));
            if (s == 2) {
                setString(span->add_attributes(), "gen_ai.operation.name", "chat");
                setDouble(span->add_attributes(), "gen_ai.latency.time_in_queue", 0.05);
                setDouble(span->add_attributes(), "gen_ai.latency.time_to_first_token", 0.2);
                setDouble(span->add_attributes(), "gen_ai.latency.e2e", 0.85);
            }
        }
    }
    return request.SerializeAsString();
}

// One OTLP/HTTP keep-alive connection, blocking.
class HttpExporter
{
public:
    explicit HttpExporter(quint16 port)
        : m_port(port)
    { }

    // Status (0 on a broken connection) and Retry-After seconds.
    int post(const std::string &body, int *retryAfter)
    {
        if (m_socket.state() != QAbstractSocket::ConnectedState) {
            m_socket.abort();
            m_socket.connectToHost(QHostAddress::LocalHost, m_port);
            if (!m_socket.waitForConnected(5000))
                return 0;
            m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
            m_pending.clear();
        }
        const QByteArray head = "POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                "application/x-protobuf\r\nContent-Length: "
            + QByteArray::number(qsizetype(body.size())) + "\r\n\r\n";
        // One write: head and body apart would meet Nagle and a delayed ACK (40 ms).
        m_socket.write(head + QByteArray::fromRawData(body.data(), qsizetype(body.size())));
        while (true) {
            const qsizetype end = m_pending.indexOf("\r\n\r\n");
            if (end >= 0) {
                const QByteArray headers = m_pending.left(end).toLower();
                qsizetype length = 0;
                *retryAfter = 1;
                for (const QByteArray &line : headers.split('\n')) {
                    if (line.startsWith("content-length:"))
                        length = line.mid(15).trimmed().toLongLong();
                    else if (line.startsWith("retry-after:"))
                        *retryAfter = line.mid(12).trimmed().toInt();
                }
                if (m_pending.size() >= end + 4 + length) {
                    const int status = m_pending.mid(9, 3).toInt();
                    m_pending.remove(0, end + 4 + length);
                    if (headers.contains("connection: close"))
                        m_socket.disconnectFromHost();
                    return status;
                }
            }
            if (!m_socket.waitForReadyRead(30'000)) {
                m_socket.abort();
                return 0;
            }
            m_pending += m_socket.readAll();
        }
    }

private:
    quint16 m_port;
    QTcpSocket m_socket;
    QByteArray m_pending;
};

} // namespace OtlpBench
