#pragma once

#include "analysis/workflows/SpanKey.h"

class QCommandLineParser;
struct CliContext;

// Options of the critical-path attribution (exceed on workflow traces,
// critical-path --aggregate), registered on the shared parser.
void addPathOptions(QCommandLineParser &parser);

// --by-key; prints a usage message and returns false on an unknown key.
bool readKeyKind(const CliContext &context, SpanKeyKind *kind);
