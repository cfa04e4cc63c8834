#pragma once

#include "store/SpanKind.h"

#include <string_view>

// A span's kind and status as the formats write them, read one way for all:
// OTLP's enum names ("SPAN_KIND_SERVER", "STATUS_CODE_ERROR") and numbers
// ("2"), the ClickHouse exporter's newer names ("Server", "Error"), and
// Jaeger's and any-agent's words ("server"), in any letter case. Anything
// else is Unspecified / Unset.
namespace SpanKindText {

SpanKind kind(std::string_view text);
SpanStatus status(std::string_view text);

} // namespace SpanKindText
