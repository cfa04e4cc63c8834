#pragma once

struct CliContext;

// `critical-path FILE [--trace ID] [--json]`: each workflow's timing, the
// chain of spans that determines when it completes, and every other span's
// slack.
int runCriticalPath(const CliContext &context);
