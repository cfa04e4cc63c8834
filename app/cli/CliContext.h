#pragma once

#include "analysis/requests/Boundary.h"
#include "io/LoadResult.h"

#include <QCommandLineParser>
#include <QTextStream>

// What every subcommand receives: parsed options and the output streams.
struct CliContext
{
    QCommandLineParser &parser;
    QStringList arguments;   // positional arguments after the subcommand
    QTextStream &out;
    QTextStream &err;
    Boundary boundary = Boundary::Client;
    bool json = false;
    LoadOptions loadOptions;
};

// Exit codes shared by all subcommands.
enum CliExit { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

// Loads `path` with a progress line on a terminal; prints the fatal error
// and returns false when nothing could be loaded.
bool loadForCli(const CliContext &context, const QString &path, LoadResult *result);
