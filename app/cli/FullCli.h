#pragma once

#include <QString>

class QCommandLineParser;
class QTextStream;

// Two programs, one command line. `tracelane-cli` links only what the
// analyses need (QtCore, QtNetwork); starting it costs a quarter of what
// starting every library costs, which at a million requests is a tenth of
// a whole `analyse`. `report` (QtGui: fonts for the PDF) and `receive`
// (gRPC and its fifty libraries) run in `tracelane-cli-full`, the same
// program with every command, which `tracelane-cli` becomes (exec) when it
// is asked for one of them. Both parse the same options.

// The options of `report` and `receive`, added to both programs' parser.
void addReportOptions(QCommandLineParser &parser);
void addReceiveOptions(QCommandLineParser &parser);

// True for the commands only tracelane-cli-full runs.
bool needsFullCli(const QString &command);

// True when argv asks for the report command: it needs a QGuiApplication
// (fonts for the PDF), the other commands only QCoreApplication.
bool wantsReport(int argc, char **argv);

// Where tracelane-cli-full is: beside this program (a build tree), else in
// ../lib/tracelane/ (installed). Empty when neither exists.
QString fullCliPath();

// Replaces this process with tracelane-cli-full on the same arguments.
// Returns only when that fails, after saying why on `err`.
int execFullCli(char **argv, QTextStream &err);
