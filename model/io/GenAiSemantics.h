#pragma once

#include "SpanRecord.h"

#include "store/SpanCategory.h"
#include "store/SpanTable.h"

#include <string>

// What the OpenTelemetry GenAI conventions (and the older spellings still in
// the wild) say about a span: its role, its operation name and its token
// usage, and how vLLM's server span maps onto our phases.
namespace GenAiSemantics {

struct SpanMeaning
{
    SpanCategory category = SpanCategory::Other;
    std::string operation;   // gen_ai.operation.name, or what a heuristic recognised
    qint32 inputTokens = -1; // -1: not reported
    qint32 outputTokens = -1;
};

// Category from gen_ai.operation.name (open-ended; unknown names stay Other
// but keep their text), then from older conventions (OpenInference,
// Traceloop), the format's own type (Langfuse), vLLM's latency attributes,
// and finally the span name's first word (any-agent's "call_llm ...").
SpanMeaning interpret(const SpanRecord &record);

SpanCategory categoryOfOperation(std::string_view operation);

// Token usage under its several spellings: gen_ai.usage.input_tokens /
// prompt_tokens, output_tokens / completion_tokens, llm.usage.*,
// llm.token_count.*. Values may be numbers or numeric strings.
qint32 readInputTokens(const SpanRecord &record);
qint32 readOutputTokens(const SpanRecord &record);

// vLLM's request span (durations in seconds from arrival, the span start):
// time_in_queue, time_in_model_prefill, time_to_first_token, e2e. Fills the
// queue/prefill/first-token stamps and the server's last token. Returns
// false when the span carries none of them.
bool readVllmLatency(const SpanRecord &record, SpanTable::ModelCall *call);

} // namespace GenAiSemantics
