#pragma once

struct CliContext;

// `whatif FILE (--scale S=F | --scale-phase [S:]P=F | --shorten-answer [S:]N@MS
// | --add-dependency A>B)... [--trace ID] [--percentile Q] [--json]`: the
// workflow(s) re-scheduled with the change; one workflow prints its new
// timing, savings and critical path, several print the population's
// percentile before and after.
int runWhatIf(const CliContext &context);
