#pragma once

#include <QString>

class QCommandLineParser;
struct CliContext;

// `compare BASE CAND` or `compare FILE (--baseline-where ... --candidate-where ...
// | --split-at T)`: did a change move the target percentile? Per class and
// overall, with intervals, verdicts, misses, the phase shift, the workload
// check, the stop rule and a predicted saving beside the observed one.
void addCompareOptions(QCommandLineParser &parser);
int runCompare(const CliContext &context);

// "--split-at" text to ns on the trace clock: "1500" or "1500ms", "90s",
// "250us", "1746568300000000000ns", an ISO-8601 date-time, or "+DURATION"
// after the first request's send. False with the reason on bad text.
bool parseSplitTime(const QString &text, qint64 firstSendNs, qint64 *ns, QString *error);
