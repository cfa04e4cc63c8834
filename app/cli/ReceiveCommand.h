#pragma once

struct CliContext;

// tracelane-cli receive: an OTLP/HTTP receiver until --duration, --max-spans
// or SIGINT/SIGTERM, then a summary (received, rejected with reasons,
// per-service counts, the analysis of what arrived); --out keeps the
// capture as OTLP JSON Lines.
int runReceive(const CliContext &context);
