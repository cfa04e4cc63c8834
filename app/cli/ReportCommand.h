#pragma once

struct CliContext;

// `report FILE --out report.html|pdf|md [--record R.json] [--candidate CAND]`:
// the one-page design-review report — the diagnosis record (drafted from the
// trace, or the given one measured on it), then the figures behind it, and,
// with a candidate, the comparison and the stop rule's verdict.
int runReport(const CliContext &context);
