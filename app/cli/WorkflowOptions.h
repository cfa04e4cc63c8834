#pragma once

#include "io/LoadResult.h"

#include <QString>

#include <vector>

class QCommandLineParser;
class TraceStore;
struct CliContext;

// Options of the workflow commands (critical-path, whatif), registered on
// the shared parser.
void addWorkflowOptions(QCommandLineParser &parser);

// Prints that `path` holds no workflow (COMMAND needs a span trace) and
// returns false when the trace has none.
bool requireWorkflows(const CliContext &context, const QString &command, const QString &path, const TraceStore &store);

// What critical-path and whatif start from: the one FILE loaded and the
// workflows to analyse, the one named by --trace or else all of them.
struct WorkflowInput
{
    QString path;
    LoadResult load;
    std::vector<qint32> workflows;
};

// Loads the FILE and picks the workflows; prints the problem and returns
// false (exit 1) when it cannot be loaded, holds no workflow or none with
// the --trace id. The FILE count is checked before (expectOneFile).
bool loadWorkflows(const CliContext &context, const QString &command, WorkflowInput *input);
