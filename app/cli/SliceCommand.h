#pragma once

struct CliContext;

// `slice FILE --by DIM[,DIM]`: percentiles of a metric by class, with
// intervals, shares of the exceedance set and the mixture warning.
int runSlice(const CliContext &context);
