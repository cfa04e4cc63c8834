#pragma once

#include <QString>

#include <vector>

class QCommandLineParser;
class TraceStore;
struct CliContext;

// Options of the workflow commands (critical-path, whatif), registered on
// the shared parser.
void addWorkflowOptions(QCommandLineParser &parser);

// The workflows a command should analyse: the one named by --trace, else
// all of them. Prints the error and returns false when there are none.
bool selectWorkflows(const CliContext &context, const QString &path, const TraceStore &store,
                     std::vector<qint32> *workflows);
