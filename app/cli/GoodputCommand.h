#pragma once

struct CliContext;

// `goodput FILE [--slo-ttft MS] [--slo-itl MS]`: goodput under SLOs beside
// throughput and rejected load, and the Little's-law consistency check.
int runGoodput(const CliContext &context);
