#include "OtlpExport.h"

#include "GzipBody.h"
#include "OtlpJsonRequest.h"
#include "OtlpProtobufDecoder.h"
#include "proto/otlp_trace.pb.h"

#include <nlohmann/json.hpp>

namespace otlp = opentelemetry::proto::collector::trace::v1;

namespace OtlpExport {

namespace {

// google.rpc.Code for an HTTP status, as the OTLP/HTTP error body carries it.
int grpcCodeOf(int httpStatus)
{
    switch (httpStatus) {
    case 400:
        return 3; // INVALID_ARGUMENT
    case 401:
        return 16; // UNAUTHENTICATED
    case 413:
    case 429:
        return 8; // RESOURCE_EXHAUSTED
    case 415:
        return 3;
    case 503:
        return 14; // UNAVAILABLE
    default:
        return 2; // UNKNOWN
    }
}

QString mebibytes(qint64 bytes)
{
    return QStringLiteral("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

} // namespace

bool encodingOf(const QByteArray &contentType, Encoding *encoding)
{
    const QByteArray type = contentType.split(';').first().trimmed().toLower();
    if (type == "application/x-protobuf" || type == "application/protobuf") {
        *encoding = Encoding::Protobuf;
        return true;
    }
    if (type == "application/json") {
        *encoding = Encoding::Json;
        return true;
    }
    return false;
}

QByteArray contentTypeOf(Encoding encoding)
{
    return encoding == Encoding::Json ? QByteArrayLiteral("application/json")
                                      : QByteArrayLiteral("application/x-protobuf");
}

QByteArray successBody(Encoding encoding, qint64 rejectedSpans, const QString &message)
{
    if (encoding == Encoding::Json) {
        nlohmann::json document = nlohmann::json::object();
        if (rejectedSpans > 0 || !message.isEmpty()) {
            // int64 as a string: the protobuf JSON mapping.
            document["partialSuccess"]
                = {{"rejectedSpans", std::to_string(rejectedSpans)}, {"errorMessage", message.toStdString()}};
        }
        return QByteArray::fromStdString(document.dump());
    }
    otlp::ExportTraceServiceResponse response;
    if (rejectedSpans > 0 || !message.isEmpty()) {
        response.mutable_partial_success()->set_rejected_spans(rejectedSpans);
        response.mutable_partial_success()->set_error_message(message.toStdString());
    }
    return QByteArray::fromStdString(response.SerializeAsString());
}

QByteArray statusBody(Encoding encoding, int grpcCode, const QString &message)
{
    if (encoding == Encoding::Json) {
        const nlohmann::json document = {{"code", grpcCode}, {"message", message.toStdString()}};
        return QByteArray::fromStdString(document.dump());
    }
    otlp::RpcStatus status;
    status.set_code(grpcCode);
    status.set_message(message.toStdString());
    return QByteArray::fromStdString(status.SerializeAsString());
}

Reply refuse(Encoding encoding, int status, const QString &message, qint64 retryAfterSeconds)
{
    Reply reply;
    reply.status = status;
    reply.encoding = encoding;
    reply.contentType = contentTypeOf(encoding);
    reply.message = message;
    reply.retryAfterSeconds = retryAfterSeconds;
    reply.body = statusBody(encoding, grpcCodeOf(status), message);
    return reply;
}

Reply handle(const Request &request, const SpanAdmission &admission)
{
    Encoding encoding = Encoding::Protobuf;
    if (!encodingOf(request.contentType, &encoding)) {
        return refuse(Encoding::Json, 415,
                      QStringLiteral("unsupported Content-Type '%1'; send application/x-protobuf or application/json")
                          .arg(QString::fromLatin1(request.contentType.left(100))));
    }
    const ReceiveLimits &limits = admission.limits();
    if (request.body.size() > limits.maxBodyBytes) {
        return refuse(encoding, 413,
                      QStringLiteral("the body is %1, over the %2 limit")
                          .arg(mebibytes(request.body.size()), mebibytes(limits.maxBodyBytes)));
    }
    const QByteArray contentEncoding = request.contentEncoding.trimmed().toLower();
    QByteArray inflated;
    const QByteArray *body = &request.body;
    if (contentEncoding == "gzip") {
        QString error;
        switch (GzipBody::inflate(request.body, limits.maxDecompressedBytes, &inflated, &error)) {
        case GzipBody::Result::Ok:
            body = &inflated;
            break;
        case GzipBody::Result::TooLarge:
            return refuse(encoding, 413, error);
        case GzipBody::Result::Corrupt:
            return refuse(encoding, 400, error);
        }
    } else if (!contentEncoding.isEmpty() && contentEncoding != "identity") {
        return refuse(encoding, 415,
                      QStringLiteral("unsupported Content-Encoding '%1'; send gzip or no encoding")
                          .arg(QString::fromLatin1(contentEncoding.left(40))));
    }

    Reply reply;
    reply.encoding = encoding;
    reply.contentType = contentTypeOf(encoding);
    reply.batch.sequence = request.sequence;
    ExportBatchSink sink(reply.batch, admission);
    const std::string_view text(body->constData(), size_t(body->size()));
    QString error;
    const bool decoded = encoding == Encoding::Json ? OtlpJsonRequest::decode(text, sink, request.sequence, &error)
                                                    : OtlpProtobufDecoder::decode(text, sink, request.sequence, &error);
    if (!decoded)
        return refuse(encoding, 400, error);
    reply.message = reply.batch.rejectionMessage();
    reply.body = successBody(encoding, qint64(reply.batch.rejected.size()), reply.message);
    return reply;
}

} // namespace OtlpExport
