#pragma once

#include <QString>

#include <string_view>

class SpanSink;

// Decodes an OTLP ExportTraceServiceRequest in protobuf (the body of an
// OTLP/HTTP application/x-protobuf request, or a gRPC Export call) into
// SpanRecords for `sink`, field by field as OtlpSpanReader reads the JSON
// form: ids as lower-case hex (a trace id must be 16 bytes and a span id 8,
// all-zero ids invalid), attribute values as AttributeValue with arrays and
// kvlists rendered as JSON text, bytes as base64. A span with a bad id, a
// missing time or a time past 2262 is rejected with its field; the rest of
// the request is still read.
namespace OtlpProtobufDecoder {

// False when `body` is not a well-formed ExportTraceServiceRequest
// (truncated, corrupt, nested past protobuf's recursion limit); `error`
// then says so and nothing was delivered.
bool decode(std::string_view body, SpanSink &sink, qint64 line, QString *error);

} // namespace OtlpProtobufDecoder
