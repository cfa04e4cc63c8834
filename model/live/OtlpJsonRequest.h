#pragma once

#include <QString>

#include <string_view>

class SpanSink;

// Decodes an OTLP/JSON ExportTraceServiceRequest (the body of an OTLP/HTTP
// application/json request) through OtlpSpanReader, the state machine the
// OTLP file loader uses: the same grammar, id forms and per-span rules.
namespace OtlpJsonRequest {

// False when the body is not JSON or not a trace export request; `error`
// says why (with the byte offset nlohmann stopped at).
bool decode(std::string_view body, SpanSink &sink, qint64 line, QString *error);

} // namespace OtlpJsonRequest
