#pragma once

#include "store/TraceStore.h"

// Appends a store of span workflows built on its own (a part) to a store that
// already holds earlier ones, so a live capture grows by the traces completed
// since its last snapshot instead of being built again from every span.
//
// `into` and `part` are each what SpanTraceBuilder made of its spans; the
// result equals building them together, trace for trace, when no trace has
// spans in both and the part's resources and scopes begin with `into`'s (the
// live store interns them once and hands every builder all of them, in order).
// Strings are interned again into `into`'s pools; rows, parents, edges and
// request rows are offset; request attribute columns are matched by name. The
// part's rejected records and notices are left in `part` for the caller (which
// decides which of them still hold for the grown store); the rest of `part` is
// consumed.
namespace SpanStorePart {

void append(TraceStore &into, TraceStore &part);

} // namespace SpanStorePart
