#pragma once

#include "analysis/requests/Boundary.h"
#include "io/LoadResult.h"

#include <QCommandLineParser>
#include <QTextStream>

class TraceStore;

// What every subcommand receives: parsed options and the output streams.
struct CliContext
{
    QCommandLineParser &parser;
    QStringList arguments; // positional arguments after the subcommand
    QTextStream &out;
    QTextStream &err;
    Boundary boundary = Boundary::Client;
    bool json = false;
    LoadOptions loadOptions;
    // --all-attributes: store every attribute even where a command reads
    // fewer (as the GUI does), to compare with the projected load.
    bool allAttributes = false;
};

// Exit codes shared by all subcommands.
enum CliExit { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

// Loads `path` with a progress line on a terminal; prints the fatal error
// and returns false when nothing could be loaded. `attributes`: the class
// attributes the command reads (all of them unless --all-attributes).
bool loadForCli(const CliContext &context, const QString &path, LoadResult *result,
                const AttributeProjection &attributes = {});

// The commands that read one FILE: prints "tracelane-cli COMMAND: expected
// exactly one FILE" and the usage, and returns false, unless exactly one
// positional argument was given.
bool expectOneFile(const CliContext &context, const QString &command);

// Prints "PATH: no valid records; N rejected" with the rejections' summary
// and returns false when the loaded trace holds no request.
bool requireRequests(const CliContext &context, const QString &path, const TraceStore &store);
