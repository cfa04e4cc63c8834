// Decoding live OTLP export requests: protobuf and JSON give the same spans
// (one set of rules with the file loader), every refused span is named with
// its field and reason, limits and hostile bodies get the OTLP/HTTP answer,
// and a capture written from the batches reopens with the same analysis.

#include "support/OtlpRequests.h"

#include "analysis/requests/ProfileReport.h"
#include "io/SpanTraceBuilder.h"
#include "io/TraceFileLoader.h"
#include "live/BatchIngest.h"
#include "live/ExportBatch.h"
#include "live/OtlpExport.h"
#include "live/OtlpJsonRequest.h"
#include "live/OtlpJsonWriter.h"
#include "live/OtlpProtobufDecoder.h"
#include "report/ReportJson.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <functional>

using namespace OtlpRequests;

namespace {

constexpr const char *kTrace = "5b8efff798038103d269b633813fc60c";
constexpr const char *kRoot = "eee19b7ec3c1b174";
constexpr const char *kChild = "eee19b7ec3c1b175";

QByteArray gzip(const QByteArray &plain)
{
    z_stream stream{};
    deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
    QByteArray out(qsizetype(deflateBound(&stream, uLong(plain.size()))), Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(plain.constData()));
    stream.avail_in = uInt(plain.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

QByteArray protobufBody(const std::function<void(otlp::Span &)> &mutateChild = {})
{
    otlp::ExportTraceServiceRequest request;
    addTrace(request, kTrace, kRoot, kChild, nowNs() - 60'000'000'000LL);
    if (mutateChild)
        mutateChild(*request.mutable_resource_spans(0)->mutable_scope_spans(0)->mutable_spans(1));
    return QByteArray::fromStdString(request.SerializeAsString());
}

ExportBatch decodeProtobuf(const QByteArray &body, const ReceiveLimits &limits = {})
{
    ExportBatch batch;
    const SpanAdmission admission(limits, nowNs());
    ExportBatchSink sink(batch, admission);
    QString error;
    if (!OtlpProtobufDecoder::decode(std::string_view(body.constData(), size_t(body.size())), sink, 1, &error))
        qWarning() << error;
    return batch;
}

ExportBatch decodeJson(const std::string &body)
{
    ExportBatch batch;
    const SpanAdmission admission(ReceiveLimits{}, nowNs());
    ExportBatchSink sink(batch, admission);
    QString error;
    if (!OtlpJsonRequest::decode(body, sink, 1, &error))
        qWarning() << error;
    return batch;
}

OtlpExport::Reply handle(const QByteArray &type, const QByteArray &body, const QByteArray &encoding = {},
                         const ReceiveLimits &limits = {})
{
    return OtlpExport::handle({type, encoding, body, 1}, SpanAdmission(limits, nowNs()));
}

const QByteArray kProtobuf = QByteArrayLiteral("application/x-protobuf");
const QByteArray kJson = QByteArrayLiteral("application/json");

} // namespace

class TestOtlpDecode : public QObject
{
    Q_OBJECT

private slots:
    void protobufAndJsonDecodeAlike()
    {
        const qint64 start = nowNs() - 60'000'000'000LL;
        otlp::ExportTraceServiceRequest request;
        addTrace(request, kTrace, kRoot, kChild, start);
        const ExportBatch fromProtobuf = decodeProtobuf(QByteArray::fromStdString(request.SerializeAsString()));
        const ExportBatch fromJson = decodeJson(jsonTrace(kTrace, kRoot, kChild, start));
        QCOMPARE(fromProtobuf.rejected.size(), size_t(0));
        QCOMPARE(fromJson.rejected.size(), size_t(0));
        QCOMPARE(fromProtobuf.spans.size(), size_t(2));
        QCOMPARE(fromJson.spans.size(), size_t(2));
        for (size_t i = 0; i < 2; ++i) {
            const SpanRecord &p = fromProtobuf.spans[i];
            const SpanRecord &j = fromJson.spans[i];
            QCOMPARE(p.traceId, std::string(kTrace));
            QCOMPARE(p.traceId, j.traceId);
            QCOMPARE(p.spanId, j.spanId);
            QCOMPARE(p.parentSpanId, j.parentSpanId);
            QCOMPARE(p.name, j.name);
            QCOMPARE(p.kind, j.kind);
            QCOMPARE(p.start, j.start);
            QCOMPARE(p.end, j.end);
            QCOMPARE(p.status, j.status);
            QCOMPARE(p.events.size(), j.events.size());
            QCOMPARE(p.attributes.size(), j.attributes.size());
            for (size_t a = 0; a < p.attributes.size(); ++a) {
                QCOMPARE(p.attributes[a].key, j.attributes[a].key);
                QCOMPARE(p.attributes[a].value.type, j.attributes[a].value.type);
                QCOMPARE(p.attributes[a].value.text, j.attributes[a].value.text);
                QCOMPARE(p.attributes[a].value.elements, j.attributes[a].value.elements);
            }
        }
        const SpanRecord &child = fromProtobuf.spans[1];
        QCOMPARE(child.parentSpanId, std::string(kRoot));
        QCOMPARE(child.start, start + 10'000'000);
        QCOMPARE(child.attributes[3].value.number, 0.25);
        QCOMPARE(child.attributes[6].value.text, std::string(R"(["a",7])"));
        QCOMPARE(child.events[0].time, start + 410'000'000);
        QCOMPARE(fromProtobuf.resources.size(), size_t(1));
        QCOMPARE(fromProtobuf.scopes[0].version, std::string("0.6.0"));
    }

    void protobufRejections_data()
    {
        QTest::addColumn<std::function<void(otlp::Span &)>>("mutate");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        using Mutation = std::function<void(otlp::Span &)>;
        QTest::newRow("trace id of 15 bytes")
            << Mutation([](otlp::Span &s) { s.set_trace_id(std::string(15, '\x01')); }) << QStringLiteral("traceId")
            << QStringLiteral("must be 16 bytes, got 15");
        QTest::newRow("span id of 9 bytes") << Mutation([](otlp::Span &s) { s.set_span_id(std::string(9, '\x01')); })
                                            << QStringLiteral("spanId") << QStringLiteral("must be 8 bytes, got 9");
        QTest::newRow("missing span id") << Mutation([](otlp::Span &s) { s.clear_span_id(); })
                                         << QStringLiteral("spanId") << QStringLiteral("missing");
        QTest::newRow("all-zero trace id") << Mutation([](otlp::Span &s) { s.set_trace_id(std::string(16, '\0')); })
                                           << QStringLiteral("traceId") << QStringLiteral("an all-zero id is invalid");
        QTest::newRow("parent id of 4 bytes")
            << Mutation([](otlp::Span &s) { s.set_parent_span_id("abcd"); }) << QStringLiteral("parentSpanId")
            << QStringLiteral("must be 8 bytes, got 4");
        QTest::newRow("start in 1970") << Mutation([](otlp::Span &s) { s.set_start_time_unix_nano(1000); })
                                       << QStringLiteral("startTimeUnixNano") << QStringLiteral("1000 ns is");
        QTest::newRow("start in 1970 says behind")
            << Mutation([](otlp::Span &s) { s.set_start_time_unix_nano(1000); }) << QStringLiteral("startTimeUnixNano")
            << QStringLiteral("days behind the receiver's clock, more than the 30-day limit");
        QTest::newRow("end after 2262")
            << Mutation([](otlp::Span &s) { s.set_end_time_unix_nano(~quint64(0)); })
            << QStringLiteral("endTimeUnixNano")
            << QStringLiteral("time 18446744073709551615 ns does not fit in 64 bits (after the year 2262)");
        QTest::newRow("microseconds for nanoseconds")
            << Mutation([](otlp::Span &s) { s.set_end_time_unix_nano(s.end_time_unix_nano() * 1000); })
            << QStringLiteral("endTimeUnixNano") << QStringLiteral("days ahead of the receiver's clock");
        QTest::newRow("ends before it starts")
            << Mutation([](otlp::Span &s) { s.set_end_time_unix_nano(s.start_time_unix_nano() - 1000); })
            << QStringLiteral("endTimeUnixNano") << QStringLiteral("the span ends 1000 ns before it starts");
        QTest::newRow("its own parent") << Mutation([](otlp::Span &s) { s.set_parent_span_id(s.span_id()); })
                                        << QStringLiteral("parentSpanId")
                                        << QStringLiteral("the span names itself as its parent");
        QTest::newRow("invalid UTF-8 name") << Mutation([](otlp::Span &s) { s.set_name("ok\xC3\x28"); })
                                            << QStringLiteral("name") << QStringLiteral("invalid UTF-8 at byte 2");
        QTest::newRow("surrogate in an attribute") << Mutation([](otlp::Span &s) {
            s.mutable_attributes(0)->mutable_value()->set_string_value("llama\xED\xA0\x80");
        }) << QStringLiteral("attributes.gen_ai.request.model")
                                                   << QStringLiteral("invalid UTF-8 at byte 5 of the value");
        QTest::newRow("200 attributes") << Mutation([](otlp::Span &s) {
            for (int i = 0; i < 193; ++i)
                setInt(s.add_attributes(), "extra." + std::to_string(i), i);
        }) << QStringLiteral("attributes")
                                        << QStringLiteral("200 attributes, over the limit of 128 per span");
        QTest::newRow("attribute of 70 KiB")
            << Mutation([](otlp::Span &s) { setString(s.add_attributes(), "prompt", std::string(70 * 1024, 'x')); })
            << QStringLiteral("attributes.prompt") << QStringLiteral("value of 70.0 KiB, over the limit of 64.0 KiB");
        QTest::newRow("5000 events") << Mutation([](otlp::Span &s) {
            for (int i = 0; i < 4999; ++i)
                s.add_events()->set_name("token");
        }) << QStringLiteral("events")
                                     << QStringLiteral("5000 events, over the limit of 4096 per span");
    }

    void protobufRejections()
    {
        QFETCH(std::function<void(otlp::Span &)>, mutate);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const ExportBatch batch = decodeProtobuf(protobufBody(mutate));
        QCOMPARE(batch.spans.size(), size_t(1)); // the root still arrives
        QCOMPARE(batch.spans[0].spanId, std::string(kRoot));
        QCOMPARE(batch.rejected.size(), size_t(1));
        QCOMPARE(batch.rejected[0].field, field);
        QVERIFY2(batch.rejected[0].reason.contains(reason), qPrintable(batch.rejected[0].reason));
    }

    void jsonRejections_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const QString child = QString::fromLatin1(kChild);
        QTest::newRow("span id of 20 hex digits")
            << child << QStringLiteral("eee19b7ec3c1b1750000") << QStringLiteral("spanId")
            << QStringLiteral("'eee19b7ec3c1b1750000' is neither 16 hex digits "
                              "nor base64 of 8 bytes");
        QTest::newRow("span id not hex") << child << QStringLiteral("zzz19b7ec3c1b175") << QStringLiteral("spanId")
                                         << QString();
        QTest::newRow("invalid UTF-8 name") << QStringLiteral("llm_request") << QStringLiteral("llm_\xFF")
                                            << QStringLiteral("name") << QStringLiteral("invalid UTF-8 at byte 4");
    }

    void jsonRejections()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        std::string body = jsonTrace(kTrace, kRoot, kChild, nowNs() - 60'000'000'000LL);
        // Replace in the child span only (its id, or its name).
        const std::string needle = from.toLatin1().toStdString();
        const size_t at = body.find(needle);
        QVERIFY(at != std::string::npos);
        std::string replacement = to == QStringLiteral("llm_\xFF") ? std::string("llm_\xFF") : to.toStdString();
        body.replace(at, needle.size(), replacement);
        const ExportBatch batch = decodeJson(body);
        QCOMPARE(batch.spans.size(), size_t(1));
        QCOMPARE(batch.rejected.size(), size_t(1));
        QCOMPARE(batch.rejected[0].field, field);
        QVERIFY2(batch.rejected[0].reason.contains(reason), qPrintable(batch.rejected[0].reason));
    }

    void answers()
    {
        // Everything accepted: an empty ExportTraceServiceResponse.
        OtlpExport::Reply reply = handle(kProtobuf, protobufBody());
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.contentType, kProtobuf);
        QCOMPARE(reply.batch.spans.size(), size_t(2));
        otlp::ExportTraceServiceResponse response;
        QVERIFY(response.ParseFromString(reply.body.toStdString()));
        QVERIFY(!response.has_partial_success());

        // One span refused: partial_success with the count and the reason.
        reply = handle(kProtobuf, protobufBody([](otlp::Span &s) { s.set_span_id(std::string(9, '\x02')); }));
        QCOMPARE(reply.status, 200);
        QVERIFY(response.ParseFromString(reply.body.toStdString()));
        QCOMPARE(response.partial_success().rejected_spans(), 1);
        QCOMPARE(QString::fromStdString(response.partial_success().error_message()),
                 QStringLiteral("1 span rejected: span 020202020202020202: spanId: must be 8 bytes, got 9"));

        // The same in JSON.
        std::string json = jsonTrace(kTrace, kRoot, kChild, 1000);
        reply = handle(kJson, QByteArray::fromStdString(json));
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.contentType, kJson);
        const auto document = nlohmann::json::parse(reply.body.toStdString());
        QCOMPARE(document["partialSuccess"]["rejectedSpans"].get<std::string>(), std::string("2"));
        QVERIFY(document["partialSuccess"]["errorMessage"].get<std::string>().starts_with(
            "2 spans rejected: span eee19b7ec3c1b174: startTimeUnixNano: 1000 ns is"));

        // Gzip, with a charset parameter on the type.
        reply = handle(QByteArrayLiteral("application/json; charset=utf-8"),
                       gzip(QByteArray::fromStdString(jsonTrace(kTrace, kRoot, kChild, nowNs()))), "gzip");
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.batch.spans.size(), size_t(2));
        QCOMPARE(reply.body, QByteArrayLiteral("{}"));
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("type");
        QTest::addColumn<QByteArray>("encoding");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        const QByteArray protobuf = protobufBody();
        const QByteArray json = QByteArray::fromStdString(jsonTrace(kTrace, kRoot, kChild, nowNs()));
        QTest::newRow("text/plain") << QByteArrayLiteral("text/plain") << QByteArray() << json << 415
                                    << QStringLiteral("unsupported Content-Type 'text/plain'; send "
                                                      "application/x-protobuf or application/json");
        QTest::newRow("brotli") << kJson << QByteArrayLiteral("br") << json << 415
                                << QStringLiteral("unsupported Content-Encoding 'br'; send gzip or no encoding");
        QTest::newRow("truncated protobuf")
            << kProtobuf << QByteArray() << protobuf.left(protobuf.size() / 2) << 400
            << QStringLiteral("the body is not a valid protobuf ExportTraceServiceRequest (truncated, corrupt or not "
                              "protobuf)");
        QTest::newRow("JSON sent as protobuf")
            << kProtobuf << QByteArray() << json << 400 << QStringLiteral("the body is not a valid protobuf");
        QTest::newRow("truncated JSON") << kJson << QByteArray() << json.left(json.size() - 5) << 400
                                        << QStringLiteral("the JSON body ends early at byte");
        QTest::newRow("not JSON") << kJson << QByteArray() << QByteArrayLiteral("resourceSpans=1") << 400
                                  << QStringLiteral("invalid JSON at byte 1");
        QTest::newRow("an array") << kJson << QByteArray() << QByteArrayLiteral("[1,2]") << 400
                                  << QStringLiteral("an OTLP export request must be a JSON object, got an array");
        QTest::newRow("metrics to the traces path")
            << kJson << QByteArray() << QByteArrayLiteral("{\"resourceMetrics\":[]}") << 400
            << QStringLiteral("a metrics or logs request, not traces");
        QTest::newRow("truncated gzip") << kJson << QByteArrayLiteral("gzip") << gzip(json).left(40) << 400
                                        << QStringLiteral("the gzip body ends early (truncated)");
        QTest::newRow("gzip that is not")
            << kJson << QByteArrayLiteral("gzip") << json << 400 << QStringLiteral("the body is not valid gzip");
        QTest::newRow("gzip bomb") << kProtobuf << QByteArrayLiteral("gzip")
                                   << gzip(QByteArray(100 * 1024 * 1024, '\0')) << 413
                                   << QStringLiteral("the gzip body inflates past the 64 MiB limit (a gzip bomb?)");
    }

    void refusals()
    {
        QFETCH(QByteArray, type);
        QFETCH(QByteArray, encoding);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, message);
        const OtlpExport::Reply reply = handle(type, body, encoding);
        QCOMPARE(reply.status, status);
        QVERIFY2(reply.message.startsWith(message), qPrintable(reply.message));
        QCOMPARE(reply.batch.spans.size(), size_t(0));
        // The error body is a google.rpc.Status in the request's encoding.
        if (reply.contentType == kProtobuf) {
            otlp::RpcStatus rpc;
            QVERIFY(rpc.ParseFromString(reply.body.toStdString()));
            QCOMPARE(QString::fromStdString(rpc.message()), reply.message);
            QCOMPARE(rpc.code(), status == 413 ? 8 : 3);
        } else {
            const auto document = nlohmann::json::parse(reply.body.toStdString());
            QCOMPARE(QString::fromStdString(document["message"].get<std::string>()), reply.message);
        }
    }

    void bodyOverTheLimit()
    {
        ReceiveLimits limits;
        limits.maxBodyBytes = 1024;
        const OtlpExport::Reply reply = handle(kProtobuf, QByteArray(2048, 'x'), {}, limits);
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.message, QStringLiteral("the body is 0.0 MiB, over the 0.0 MiB limit"));
    }

    void captureReopensWithTheSameAnalysis()
    {
        // Three traces over two requests; the second request carries the
        // child of a trace whose root came in the first (split across batches).
        const qint64 start = nowNs() - 120'000'000'000LL;
        otlp::ExportTraceServiceRequest first;
        addTrace(first, "00000000000000000000000000000a01", "00000000000000a1", "00000000000000a2", start);
        addTrace(first, "00000000000000000000000000000b01", "00000000000000b1", "00000000000000b2",
                 start + 2'000'000'000);
        otlp::ExportTraceServiceRequest second;
        addTrace(second, "00000000000000000000000000000c01", "00000000000000c1", "00000000000000c2",
                 start + 3'000'000'000);
        auto *moved = first.mutable_resource_spans(1)->mutable_scope_spans(0)->mutable_spans();
        *second.mutable_resource_spans(0)->mutable_scope_spans(0)->add_spans() = moved->Get(1);
        moved->RemoveLast();

        TraceStore live;
        SpanTraceBuilder builder(live, QStringLiteral("live"));
        QTemporaryDir dir;
        const QString capture = dir.filePath(QStringLiteral("capture.otlp.jsonl"));
        QFile file(capture);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (const auto *request : {&first, &second}) {
            const ExportBatch batch = decodeProtobuf(QByteArray::fromStdString(request->SerializeAsString()));
            QCOMPARE(batch.rejected.size(), size_t(0));
            BatchIngest::feed(batch, builder);
            file.write(QByteArray::fromStdString(OtlpJsonWriter::line(batch)) + '\n');
        }
        file.close();
        builder.finish();
        QCOMPARE(live.spans.rowCount(), 6);
        QCOMPARE(live.workflows.rowCount(), 3);
        QVERIFY(live.rejected.empty());

        const LoadResult reopened = TraceFileLoader::load(capture, LoadOptions{});
        QVERIFY2(reopened.ok(), qPrintable(reopened.fatalError));
        const TraceStore &loaded = *reopened.store;
        QVERIFY(loaded.rejected.empty());
        QCOMPARE(loaded.format, QStringLiteral("otlp-json"));
        QCOMPARE(loaded.spans.rowCount(), 6);
        QCOMPARE(loaded.workflows.rowCount(), 3);
        QCOMPARE(loaded.requests.rowCount(), live.requests.rowCount());
        const auto profile = [](const TraceStore &store) {
            return ReportJson::profile(
                       profileRequests(store.requests, Boundary::Client, QStringLiteral("x"), QStringLiteral("y")))
                .dump();
        };
        QCOMPARE(QString::fromStdString(profile(loaded)), QString::fromStdString(profile(live)));
        // vLLM's latencies became phases in both: the TTFT is the span's own.
        QVERIFY(QString::fromStdString(profile(live)).contains(QLatin1String("\"n\":3")));
    }
};

QTEST_GUILESS_MAIN(TestOtlpDecode)
#include "tst_otlpdecode.moc"
