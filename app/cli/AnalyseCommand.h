#pragma once

struct CliContext;

// `analyse FILE`: the seed profiler's report on a trace file.
int runAnalyse(const CliContext &context);

// No arguments: the seed's built-in positive case and negative control.
int runBuiltinCases(const CliContext &context);
