#pragma once

class QCommandLineParser;
struct CliContext;

// `report FILE --out report.html|pdf|md [--record R.json] [--candidate CAND]`:
// the one-page design-review report — the diagnosis record (drafted from the
// trace, or the given one measured on it), then the figures behind it, and,
// with a candidate, the comparison and the stop rule's verdict.
void addReportOptions(QCommandLineParser &parser);
int runReport(const CliContext &context);

// True when argv asks for the report command: it needs a QGuiApplication
// (fonts for the PDF), the other commands only QCoreApplication.
bool wantsReport(int argc, char **argv);
