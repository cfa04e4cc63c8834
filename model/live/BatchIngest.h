#pragma once

#include "ExportBatch.h"

class SpanTraceBuilder;

// Hands the accepted spans of an export batch to a store's
// SpanTraceBuilder: its resources and scopes first (their batch-local
// indices mapped to the store's), then the spans, exactly as a file's
// reader would. The builder's finish() links traces split across batches.
namespace BatchIngest {

void feed(const ExportBatch &batch, SpanTraceBuilder &builder);

} // namespace BatchIngest
