// OTLP/gRPC TraceService/Export over a real loopback channel: answers by the
// OTLP/gRPC specification and the same admission rules as OTLP/HTTP
// (partial_success), the bearer token in metadata, a malformed message,
// the message size limit, gzip-compressed calls, and back-pressure as a
// retryable RESOURCE_EXHAUSTED carrying a google.rpc.RetryInfo.

#include "support/OtlpRequests.h"
#include "support/ThreadNice.h"

#include "live/LiveQueue.h"
#include "live/OtlpGrpcServer.h"
#include "live/ReceiveStats.h"
#include "proto/otlp_trace.grpc.pb.h"
#include "store/ThreadPriority.h"

#include <QTest>

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/client_unary_call.h>

#include <atomic>
#include <memory>
#include <set>
#include <thread>

using namespace OtlpRequests;

namespace {

struct Receiver
{
    explicit Receiver(OtlpGrpcServer::Options options = {}, qint64 maxBufferedSpans = 1000)
        : queue(maxBufferedSpans)
        , server(options, queue, stats)
    {
        QString error;
        if (!server.listen(QHostAddress::LocalHost, 0, &error))
            qFatal("%s", qPrintable(error));
        grpc::ChannelArguments arguments;
        arguments.SetMaxSendMessageSize(64 * 1024 * 1024);
        channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(server.port()),
                                            grpc::InsecureChannelCredentials(), arguments);
        stub = otlp::TraceService::NewStub(channel);
    }

    struct Call
    {
        grpc::Status status;
        otlp::ExportTraceServiceResponse response;
    };

    Call send(const otlp::ExportTraceServiceRequest &request, const char *token = nullptr, bool gzip = false)
    {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
        if (token)
            context.AddMetadata("authorization", std::string("Bearer ") + token);
        if (gzip)
            context.set_compression_algorithm(GRPC_COMPRESS_GZIP);
        Call call;
        call.status = stub->Export(&context, request, &call.response);
        return call;
    }

    // Raw bytes as the request message (what a broken exporter could send).
    grpc::Status sendBytes(const std::string &bytes)
    {
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
        grpc::Slice slice(bytes.data(), bytes.size());
        const grpc::ByteBuffer request(&slice, 1);
        grpc::ByteBuffer response;
        return grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
            channel.get(),
            grpc::internal::RpcMethod("/opentelemetry.proto.collector.trace.v1.TraceService/Export",
                                      grpc::internal::RpcMethod::NORMAL_RPC),
            &context, request, &response);
    }

    LiveQueue queue;
    ReceiveStats stats;
    OtlpGrpcServer server;
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<otlp::TraceService::Stub> stub;
};

otlp::ExportTraceServiceRequest oneTrace(const char *trace = "5b8efff798038103d269b633813fc60c")
{
    otlp::ExportTraceServiceRequest request;
    addTrace(request, trace, "eee19b7ec3c1b174", "eee19b7ec3c1b175", nowNs() - 10'000'000'000LL);
    return request;
}

} // namespace

class TestOtlpGrpc : public QObject
{
    Q_OBJECT

private slots:
    void acceptsAndQueues()
    {
        Receiver receiver;
        const auto call = receiver.send(oneTrace());
        QVERIFY2(call.status.ok(), call.status.error_message().c_str());
        QVERIFY(!call.response.has_partial_success());
        const auto batches = receiver.queue.takeAll();
        QCOMPARE(batches.size(), size_t(1));
        QCOMPARE(batches[0].spans.size(), size_t(2));
        QCOMPARE(batches[0].sequence, 1);
        const auto stats = receiver.stats.snapshot();
        QCOMPARE(stats.acceptedSpans, 2);
        QCOMPARE(stats.byGrpcCode.at(0), 1);
        QVERIFY(stats.byStatus.empty());
        QCOMPARE(stats.spansByService.at("vllm"), 2);
    }

    // A window's receiver (backgroundPriority) answers on threads that yield
    // to its GUI thread; the CLI's does not lower anything.
    void aWindowsReceiverAnswersAtBackgroundPriority()
    {
        const int base = ThreadNice::processNice();
        if (base >= ThreadPriority::kBackgroundNice)
            QSKIP("the tests run at nice 5 or more already: a thread cannot be lowered to 5 from there");
        {
            Receiver receiver;
            QVERIFY(receiver.send(oneTrace()).status.ok());
            QCOMPARE(ThreadNice::countAtNice(ThreadPriority::kBackgroundNice), 0);
        }
        OtlpGrpcServer::Options options;
        options.backgroundPriority = true;
        Receiver receiver(options);
        QVERIFY(receiver.send(oneTrace()).status.ok());
        QVERIFY(ThreadNice::countAtNice(ThreadPriority::kBackgroundNice) >= 1);
        QCOMPARE(ThreadNice::niceOf(QStringLiteral("tst_otlpgrpc")), base); // this (the main) thread
        QCOMPARE(receiver.queue.bufferedSpans(), 2);
    }

    void gzipCompressedCall()
    {
        Receiver receiver;
        const auto call = receiver.send(oneTrace(), nullptr, true);
        QVERIFY2(call.status.ok(), call.status.error_message().c_str());
        QCOMPARE(receiver.queue.bufferedSpans(), 2);
    }

    void partialSuccessCountsRejectedSpans()
    {
        Receiver receiver;
        auto request = oneTrace();
        // A third span with an 8-byte trace id and one with invalid UTF-8 in its name.
        auto *spans = request.mutable_resource_spans(0)->mutable_scope_spans(0);
        auto *shortId = spans->add_spans();
        *shortId = spans->spans(1);
        shortId->set_trace_id(bytesOfHex("0102030405060708"));
        shortId->set_span_id(bytesOfHex("00000000000000a1"));
        auto *badText = spans->add_spans();
        *badText = spans->spans(1);
        badText->set_span_id(bytesOfHex("00000000000000a2"));
        badText->set_name(std::string("llm\xff_request"));
        const auto call = receiver.send(request);
        QVERIFY2(call.status.ok(), call.status.error_message().c_str());
        QVERIFY(call.response.has_partial_success());
        QCOMPARE(call.response.partial_success().rejected_spans(), 2);
        QVERIFY2(QByteArray::fromStdString(call.response.partial_success().error_message()).contains("traceId"),
                 call.response.partial_success().error_message().c_str());
        QCOMPARE(receiver.queue.bufferedSpans(), 2);
        const auto stats = receiver.stats.snapshot();
        QCOMPARE(stats.acceptedSpans, 2);
        QCOMPARE(stats.rejectedSpans, 2);
    }

    void malformedMessage()
    {
        Receiver receiver;
        // Field 1 (resource_spans) announced as 100 bytes, 3 present.
        const grpc::Status status = receiver.sendBytes(std::string("\x0a\x64\x01\x02\x03", 5));
        QCOMPARE(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
        QVERIFY(!status.error_message().empty());
        QCOMPARE(receiver.queue.bufferedSpans(), 0);
        QCOMPARE(receiver.stats.snapshot().byGrpcCode.at(int(grpc::StatusCode::INVALID_ARGUMENT)), 1);
        // The receiver keeps serving.
        QVERIFY(receiver.send(oneTrace()).status.ok());
    }

    void bearerTokenInMetadata()
    {
        OtlpGrpcServer::Options options;
        options.bearerToken = "s3cret";
        Receiver receiver(options);
        auto call = receiver.send(oneTrace());
        QCOMPARE(call.status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QCOMPARE(call.status.error_message(),
                 std::string("this receiver needs the metadata 'authorization: Bearer TOKEN'"));
        call = receiver.send(oneTrace(), "wrong");
        QCOMPARE(call.status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QCOMPARE(call.status.error_message(), std::string("wrong bearer token"));
        QCOMPARE(receiver.queue.bufferedSpans(), 0);
        QVERIFY(receiver.send(oneTrace(), "s3cret").status.ok());
        QCOMPARE(receiver.queue.bufferedSpans(), 2);
        QCOMPARE(receiver.stats.snapshot().refusals.at(QStringLiteral("gRPC UNAUTHENTICATED")).count, 2);
    }

    void messageOverTheSizeLimit()
    {
        OtlpGrpcServer::Options options;
        options.limits.maxBodyBytes = 4096;
        Receiver receiver(options);
        auto request = oneTrace();
        request.mutable_resource_spans(0)->mutable_scope_spans(0)->mutable_spans(1)->set_name(std::string(8000, 'x'));
        const auto call = receiver.send(request);
        QCOMPARE(call.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
        QCOMPARE(receiver.queue.bufferedSpans(), 0);
        QVERIFY(receiver.send(oneTrace()).status.ok());
    }

    void backPressureIsRetryable()
    {
        // Room for 2 spans: the first call fills it, the next is told to retry.
        Receiver receiver({}, 2);
        QVERIFY(receiver.send(oneTrace()).status.ok());
        const auto call = receiver.send(oneTrace("00000000000000000000000000000009"));
        QCOMPARE(call.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
        QCOMPARE(call.status.error_message(),
                 std::string("the receiver holds 2 spans not yet stored; retry after 1 s"));
        otlp::RpcStatus details;
        QVERIFY(details.ParseFromString(call.status.error_details()));
        QCOMPARE(details.code(), 8);
        QCOMPARE(details.details_size(), 1);
        QCOMPARE(details.details(0).type_url(), std::string("type.googleapis.com/google.rpc.RetryInfo"));
        otlp::RpcRetryInfo retry;
        QVERIFY(retry.ParseFromString(details.details(0).value()));
        QCOMPARE(retry.retry_delay().seconds(), 1);
        QCOMPARE(receiver.queue.takeAll().size(), size_t(1));
        QVERIFY(receiver.send(oneTrace("00000000000000000000000000000009")).status.ok());
        const auto stats = receiver.stats.snapshot();
        QCOMPARE(stats.byGrpcCode.at(0), 2);
        QCOMPARE(stats.byGrpcCode.at(8), 1);
    }

    void floodOfTinyCalls()
    {
        // 8 clients × 250 calls of one span each, at once: every call is
        // answered OK, every span is queued once, and the receiver still serves.
        Receiver receiver({}, 100'000);
        std::vector<std::thread> clients;
        std::atomic<int> failures{0};
        for (int c = 0; c < 8; ++c) {
            clients.emplace_back([&, c] {
                auto stub = otlp::TraceService::NewStub(receiver.channel);
                for (int i = 0; i < 250; ++i) {
                    otlp::ExportTraceServiceRequest request;
                    auto *span = request.add_resource_spans()->add_scope_spans()->add_spans();
                    span->set_trace_id(bytesOfHex("5b8efff798038103d269b633813fc60c"));
                    const QByteArray id = QByteArray::number(c * 1000 + i + 1, 16).rightJustified(16, '0');
                    span->set_span_id(bytesOfHex(id.constData()));
                    span->set_name("tiny");
                    span->set_start_time_unix_nano(quint64(nowNs() - 1'000'000'000LL));
                    span->set_end_time_unix_nano(quint64(nowNs() - 900'000'000LL));
                    grpc::ClientContext context;
                    otlp::ExportTraceServiceResponse response;
                    if (!stub->Export(&context, request, &response).ok())
                        ++failures;
                }
            });
        }
        for (auto &client : clients)
            client.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(receiver.queue.bufferedSpans(), 2000);
        std::set<std::string> ids;
        for (const ExportBatch &batch : receiver.queue.takeAll()) {
            for (const auto &span : batch.spans)
                ids.insert(span.spanId);
        }
        QCOMPARE(ids.size(), size_t(2000));
        const auto stats = receiver.stats.snapshot();
        QCOMPARE(stats.byGrpcCode.at(0), 2000);
        QCOMPARE(stats.requests, 2000);
        QVERIFY(receiver.send(oneTrace()).status.ok());
    }

    void portInUseIsAnError()
    {
        Receiver first;
        LiveQueue queue(10);
        ReceiveStats stats;
        OtlpGrpcServer second({}, queue, stats);
        QString error;
        QVERIFY(!second.listen(QHostAddress::LocalHost, first.server.port(), &error));
        QVERIFY2(error.contains(QString::number(first.server.port())), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestOtlpGrpc)
#include "tst_otlpgrpc.moc"
