#pragma once

#include "ExportBatch.h"

#include <string>

// Writes the accepted spans of an ExportBatch as one OTLP/JSON
// ExportTraceServiceRequest on one line (hex ids, times as decimal
// strings), the JSON Lines form the collector's file exporter writes and
// OtlpJsonLoader reads back: a live capture reopens as a file with the
// same spans, attributes and analysis.
namespace OtlpJsonWriter {

std::string line(const ExportBatch &batch);

} // namespace OtlpJsonWriter
