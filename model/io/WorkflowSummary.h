#pragma once

#include "store/TraceStore.h"

// Turns every workflow (trace) into one RequestTable row, so workflows slice
// by class and form exceedance sets exactly like flat requests:
// - id: the trace id; source line: the root span's line.
// - client_send: the root span's start (the earliest span when every span
//   is an orphan); last_token_client: the latest end of any span (E2E).
// - first_token_client (TTFT): the earliest first content-bearing token of
//   any model call: its tracelane.phase.first_token_client_unix_nano, else
//   its first client token time. Calls marked tracelane.content_bearing =
//   false do not count. No observation means no TTFT, never a guess.
// - gateway_arrival from the root's contract stamp; queue_enter through
//   first_token_server from the model call that produced the first token.
//   A stamp that would go backwards is left out (residual, not a phase).
// - tokens: the sum over spans that report usage and have no descendant
//   that reports usage, so an agent's total and its calls' usage are not
//   both counted.
// - class attributes: workflow_type (tracelane.workflow.type on the root,
//   else the root's name), service, status (error if any span is), model,
//   span_count, model_calls, tool_calls; root_name when some workflow's type
//   comes from the contract (otherwise it would repeat workflow_type).
namespace WorkflowSummary {

void summarise(TraceStore &store);

// The class attribute holding each workflow's root name.
inline constexpr QLatin1String kRootNameColumn{"root_name"};
// The span a workflow's row is measured from: its root, else (every span an
// orphan) its earliest-starting span.
qint32 entrySpan(const TraceStore &store, qsizetype workflow);
// Whether summarise() gave the requests a root_name column.
bool hasRootNames(const TraceStore &store);
// Adds root_name for every summarised workflow (summarise() does when some
// workflow's type comes from the contract; a live store that grows by parts
// adds it to its earlier rows when a later part brings the first such type).
void addRootNames(TraceStore &store);

struct Usage
{
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
};

// Token usage of the spans [first, first + count) without double counting.
Usage tokenUsage(const SpanTable &spans, qint32 first, qint32 count);

// Earliest first content-bearing token in [first, first + count), or kNoTime;
// `modelCallRow` receives the span that produced it (-1 when none).
qint64 firstContentToken(const SpanTable &spans, qint32 first, qint32 count, qint32 *modelCallRow);

} // namespace WorkflowSummary
