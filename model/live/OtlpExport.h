#pragma once

#include "ExportBatch.h"

#include <QByteArray>
#include <QString>

// One OTLP/HTTP trace export from body to answer, independent of sockets:
// content type and encoding checked, gzip inflated within its limit, the
// body decoded (protobuf or JSON) and every span admitted or rejected. The
// answer follows the OTLP/HTTP specification: 200 with an
// ExportTraceServiceResponse (partial_success when spans were rejected),
// 400 for a malformed body, 413 past a size limit, 415 for another content
// type or encoding; error bodies are a google.rpc.Status in the request's
// own encoding.
namespace OtlpExport {

enum class Encoding { Protobuf, Json };

struct Request
{
    QByteArray contentType;
    QByteArray contentEncoding;
    QByteArray body;
    qint64 sequence = 0;
};

struct Reply
{
    int status = 200;
    Encoding encoding = Encoding::Protobuf;
    QByteArray contentType; // of the answer: the request's own
    QByteArray body;
    QString message; // why, when not everything was accepted
    qint64 retryAfterSeconds = 0;
    ExportBatch batch; // the accepted and rejected spans (status 200)
};

// Protobuf for application/x-protobuf (and application/protobuf), JSON
// for application/json; parameters such as charset are ignored. False for
// anything else.
bool encodingOf(const QByteArray &contentType, Encoding *encoding);

Reply handle(const Request &request, const SpanAdmission &admission);

// A refusal before or instead of decoding (413, 415, 429, 401, 503...).
Reply refuse(Encoding encoding, int status, const QString &message, qint64 retryAfterSeconds = 0);

// Bodies in either encoding.
QByteArray successBody(Encoding encoding, qint64 rejectedSpans, const QString &message);
QByteArray statusBody(Encoding encoding, int grpcCode, const QString &message);
QByteArray contentTypeOf(Encoding encoding);

} // namespace OtlpExport
