#pragma once

#include "LoadResult.h"

class LoadControl;

// Loads OpenTelemetry OTLP/JSON traces: one ExportTraceServiceRequest
// document, or JSON Lines of them as the collector's file exporter writes
// (told apart by content, not extension). Metrics and logs records are
// skipped; a trace split across records is merged. JSON Lines records go
// through a fast tokenizer with nlohmann's SAX parser as the authority on
// errors; a document streams through nlohmann's SAX parser block by block.
namespace OtlpJsonLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control);

} // namespace OtlpJsonLoader
