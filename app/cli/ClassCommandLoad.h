#pragma once

#include "ClassOptions.h"

#include "analysis/requests/RequestSlice.h"
#include "io/LoadResult.h"

struct CliContext;

// What slice and exceed both need before they compute: the trace loaded,
// the options read and the --where slice applied.
struct ClassCommandInput
{
    LoadResult load;
    ClassOptions::Values options;
    RequestSlice slice;
    QString sliceText; // "all requests" or the filter
};

// Prints the problem and returns the exit code on failure, or -1 when the
// command should go on. `onlyNamedDimensions`: the command reads only the
// dimensions --by and --where name (slice), so the other class attributes
// are not stored.
int prepareClassCommand(const CliContext &context, const QString &command, ClassCommandInput *input,
                        bool onlyNamedDimensions = false);
