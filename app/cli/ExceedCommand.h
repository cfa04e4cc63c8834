#pragma once

struct CliContext;

// `exceed FILE`: the requests above a percentile of a metric, compared with
// the rest: phase attribution, ranked attributes, members.
int runExceed(const CliContext &context);
