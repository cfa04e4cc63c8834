#include "OtlpGrpcServer.h"

#include "LiveQueue.h"
#include "OtlpExport.h"
#include "ReceiveStats.h"
#include "SpanAdmission.h"
#include "proto/otlp_trace.grpc.pb.h"
#include "proto/otlp_trace.pb.h"
#include "store/ThreadPriority.h"

#include <QDateTime>

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>

namespace otlp = opentelemetry::proto::collector::trace::v1;

namespace {

qint64 nowNs()
{
    return QDateTime::currentMSecsSinceEpoch() * 1'000'000LL;
}

std::string toStd(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    return {utf8.constData(), size_t(utf8.size())};
}

// The request's bytes in one piece (gRPC hands them over as slices).
QByteArray bytesOf(const grpc::ByteBuffer &buffer)
{
    std::vector<grpc::Slice> slices;
    QByteArray bytes;
    if (!buffer.Dump(&slices).ok())
        return bytes;
    bytes.reserve(qsizetype(buffer.Length()));
    for (const grpc::Slice &slice : slices)
        bytes.append(reinterpret_cast<const char *>(slice.begin()), qsizetype(slice.size()));
    return bytes;
}

// RESOURCE_EXHAUSTED that OTLP exporters may retry: the status details carry
// a google.rpc.RetryInfo with the delay.
grpc::Status retryLater(const QString &message, int retryAfterSeconds)
{
    otlp::RpcRetryInfo retry;
    retry.mutable_retry_delay()->set_seconds(retryAfterSeconds);
    otlp::RpcStatus status;
    status.set_code(int(grpc::StatusCode::RESOURCE_EXHAUSTED));
    status.set_message(toStd(message));
    otlp::RpcAny *detail = status.add_details();
    detail->set_type_url("type.googleapis.com/google.rpc.RetryInfo");
    detail->set_value(retry.SerializeAsString());
    return {grpc::StatusCode::RESOURCE_EXHAUSTED, toStd(message), status.SerializeAsString()};
}

} // namespace

class OtlpGrpcServer::Service final
    : public otlp::TraceService::WithRawCallbackMethod_Export<otlp::TraceService::Service>
{
public:
    explicit Service(OtlpGrpcServer &owner)
        : m_owner(owner)
    { }

    grpc::ServerUnaryReactor *Export(grpc::CallbackServerContext *context, const grpc::ByteBuffer *request,
                                     grpc::ByteBuffer *response) override
    {
        if (m_owner.m_options.backgroundPriority)
            ThreadPriority::lowerCurrentThread(); // gRPC's threads are not ours to start
        grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
        reactor->Finish(answer(*context, *request, response));
        return reactor;
    }

private:
    grpc::Status answer(const grpc::CallbackServerContext &context, const grpc::ByteBuffer &request,
                        grpc::ByteBuffer *response)
    {
        const Options &options = m_owner.m_options;
        const qint64 sequence = ++m_sequence;
        const qint64 bytes = qint64(request.Length());
        const auto refuse = [&](grpc::StatusCode code, const QString &message) {
            m_owner.m_stats.recordGrpcRefusal(int(code), message, bytes);
            return grpc::Status(code, toStd(message));
        };
        if (!options.bearerToken.isEmpty()) {
            const auto &metadata = context.client_metadata();
            const auto found = metadata.find("authorization");
            if (found == metadata.end())
                return refuse(grpc::StatusCode::UNAUTHENTICATED,
                              QStringLiteral("this receiver needs the metadata 'authorization: Bearer TOKEN'"));
            const QByteArray given(found->second.data(), qsizetype(found->second.size()));
            if (given != "Bearer " + options.bearerToken)
                return refuse(grpc::StatusCode::UNAUTHENTICATED, QStringLiteral("wrong bearer token"));
        }
        if (m_owner.m_queue.full()) {
            const QString message = QStringLiteral("the receiver holds %1 spans not yet stored; retry after %2 s")
                                        .arg(m_owner.m_queue.bufferedSpans())
                                        .arg(options.retryAfterSeconds);
            m_owner.m_stats.recordGrpcRefusal(int(grpc::StatusCode::RESOURCE_EXHAUSTED), message, bytes);
            return retryLater(message, options.retryAfterSeconds);
        }
        // gRPC has already inflated a compressed message and held it to
        // maxBodyBytes; the rest are OTLP/HTTP's rules on a protobuf body.
        OtlpExport::Reply reply
            = OtlpExport::handle({QByteArrayLiteral("application/x-protobuf"), {}, bytesOf(request), sequence},
                                 SpanAdmission(options.limits, nowNs()));
        if (reply.status != 200) {
            return refuse(reply.status == 413 ? grpc::StatusCode::RESOURCE_EXHAUSTED
                                              : grpc::StatusCode::INVALID_ARGUMENT,
                          reply.message);
        }
        m_owner.m_stats.recordGrpcBatch(reply.batch, bytes);
        if (!reply.batch.spans.empty())
            m_owner.m_queue.push(std::move(reply.batch));
        grpc::Slice slice(reply.body.constData(), size_t(reply.body.size()));
        *response = grpc::ByteBuffer(&slice, 1);
        return grpc::Status::OK;
    }

    OtlpGrpcServer &m_owner;
    std::atomic<qint64> m_sequence{0};
};

struct OtlpGrpcServer::Running
{
    std::unique_ptr<grpc::Server> server;
};

OtlpGrpcServer::OtlpGrpcServer(Options options, LiveQueue &queue, ReceiveStats &stats)
    : m_options(std::move(options))
    , m_queue(queue)
    , m_stats(stats)
    , m_service(std::make_unique<Service>(*this))
{ }

OtlpGrpcServer::~OtlpGrpcServer()
{
    close(0);
}

bool OtlpGrpcServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    close(0);
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QStringLiteral("[%1]").arg(address.toString())
        : address.toString();
    int selectedPort = 0;
    grpc::ServerBuilder builder;
    builder.AddListeningPort(toStd(QStringLiteral("%1:%2").arg(host).arg(port)), grpc::InsecureServerCredentials(),
                             &selectedPort);
    // gRPC would otherwise share a port another process already serves.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.SetMaxReceiveMessageSize(int(qMin<qint64>(m_options.limits.maxBodyBytes, INT_MAX)));
    builder.RegisterService(m_service.get());
    auto running = std::make_unique<Running>();
    running->server = builder.BuildAndStart();
    if (!running->server || selectedPort == 0) {
        *error = QStringLiteral("gRPC could not bind %1:%2 (in use, or not an address of this machine)")
                     .arg(host)
                     .arg(port);
        return false;
    }
    m_running = std::move(running);
    m_port = quint16(selectedPort);
    return true;
}

void OtlpGrpcServer::close(int graceMs)
{
    if (!m_running)
        return;
    m_running->server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(graceMs));
    m_running->server->Wait();
    m_running.reset();
}
