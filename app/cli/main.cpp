// tracelane-cli: Tracelane's analyses for scripts and CI.

#include "AnalyseCommand.h"
#include "ClassOptions.h"
#include "CliContext.h"
#include "ClickHouseCommand.h"
#include "CompareCommand.h"
#include "CriticalPathCommand.h"
#include "ExceedCommand.h"
#include "FullCli.h"
#include "GoodputCommand.h"
#include "PathOptions.h"
#ifdef TRACELANE_FULL_CLI
#include "ReceiveCommand.h"
#include "ReportCommand.h"
#endif
#include "SliceCommand.h"
#include "StreamCommand.h"
#include "WhatIfCommand.h"
#include "WorkflowOptions.h"

#include <QCoreApplication>
#ifdef TRACELANE_FULL_CLI
#include <QGuiApplication>
#endif

#include <cstdio>
#include <functional>
#include <map>
#include <new>

int main(int argc, char *argv[])
{
    // Only the report command paints (PDF fonts); it gets a GUI application
    // on the offscreen platform, so it still runs without a display.
    // tracelane-cli-full (see FullCli.h) runs every command; tracelane-cli
    // hands it `report` and `receive`.
    std::unique_ptr<QCoreApplication> application;
#ifdef TRACELANE_FULL_CLI
    if (wantsReport(argc, argv)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        application = std::make_unique<QGuiApplication>(argc, argv);
    }
#endif
    if (!application)
        application = std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("tracelane-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TRACELANE_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Explains why LLM requests are slow, headless.\n\n"
                       "Commands:\n"
                       "  analyse FILE     phase-aware latency report of a trace file (or a clickhouse:// URL;\n"
                       "                   so do slice and exceed: the server computes, see README)\n"
                       "  critical-path FILE  each workflow's critical path, timing and slack; with\n"
                       "                   --aggregate the slow set's paths against the rest, merged by key\n"
                       "  whatif FILE      re-schedule workflows with a change (--scale, --scale-phase,\n"
                       "                   --shorten-answer, --add-dependency) and report the savings\n"
                       "  goodput FILE     goodput under TTFT/ITL objectives, throughput, Little's-law check\n"
                       "  slice FILE --by DIM[,DIM]   percentiles by class with 95% intervals\n"
                       "  exceed FILE      requests above a percentile, compared with the rest (workflows:\n"
                       "                   their excess split over critical-path time, --by-key)\n"
                       "  report FILE --out R.html|R.pdf|R.md   the one-page design-review report\n"
                       "  compare BASE CAND   did a change move the target percentile? (or one FILE with\n"
                       "                   --baseline-where/--candidate-where or --split-at; workflows: the\n"
                       "                   mean difference split over critical-path time, --by-key)\n"
                       "  receive [--http ADDR:PORT] [--out CAPTURE.otlp.jsonl]   receive OTLP/HTTP spans live\n"
                       "                   until --duration S, --max-spans N or Ctrl-C, then summarise them\n"
                       "  clickhouse init URL | push FILE URL   Tracelane's tables in ClickHouse\n"
                       "  stream FILE      inter-token gaps (every gap pooled, server and client), stalls,\n"
                       "                   chunking, coalescing and its mechanism\n"
                       "  load FILE        arrivals, in flight, queue, completions, failures and goodput over\n"
                       "                   time; burst envelope; Little's law\n"
                       "  (no command)     the built-in burst case and its negative control"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("analyse"));
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("trace file"));
    const QCommandLineOption boundaryOption(QStringLiteral("boundary"),
                                            QStringLiteral("Observation boundary for TTFT: client, server or engine."),
                                            QStringLiteral("boundary"), QStringLiteral("client"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("Print every figure as JSON."));
    const QCommandLineOption strictOption(QStringLiteral("strict"),
                                          QStringLiteral("Fail on the first rejected record."));
    const QCommandLineOption threadsOption(QStringLiteral("threads"),
                                           QStringLiteral("Loader threads (default: one per core)."),
                                           QStringLiteral("n"), QStringLiteral("0"));
    const QCommandLineOption allAttributesOption(
        QStringLiteral("all-attributes"),
        QStringLiteral("Store every class attribute even where the command reads fewer (analyse reads none, slice its "
                       "dimensions); every record is judged the same either way."));
    parser.addOptions({boundaryOption, jsonOption, strictOption, threadsOption, allAttributesOption});
    addWorkflowOptions(parser);
    addPathOptions(parser);
    parser.addOption({QStringLiteral("slo-ttft"), QStringLiteral("goodput: TTFT objective in ms (default 1200)."),
                      QStringLiteral("ms")});
    parser.addOption({QStringLiteral("slo-itl"),
                      QStringLiteral("goodput: mean ITL objective in ms/token (default 80)."), QStringLiteral("ms")});
    parser.addOption(
        {QStringLiteral("observed-in-flight"),
         QStringLiteral("goodput: concurrency seen elsewhere (a dashboard) to check against Little's law."),
         QStringLiteral("n")});
    parser.addOption({QStringLiteral("stall-ms"),
                      QStringLiteral("stream: a stall lasts at least this many ms (default 250)."),
                      QStringLiteral("ms")});
    parser.addOption({QStringLiteral("stall-factor"),
                      QStringLiteral("stream: ... and at least this many times the request's median gap (default 4)."),
                      QStringLiteral("f")});
    parser.addOption({QStringLiteral("worst"), QStringLiteral("stream: how many worst requests to list (default 10)."),
                      QStringLiteral("n")});
    parser.addOption(
        {QStringLiteral("window"), QStringLiteral("load: bin width in seconds (default 1)."), QStringLiteral("s")});
    ClassOptions::addTo(parser);
    addReportOptions(parser);
    addCompareOptions(parser);
    addReceiveOptions(parser);
    addClickHouseOptions(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        err << QStringLiteral("tracelane-cli: %1\n\n").arg(parser.errorText()) << parser.helpText();
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitOk;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        out << QCoreApplication::applicationName() << ' ' << QCoreApplication::applicationVersion() << '\n';
        return ExitOk;
    }

    QStringList positional = parser.positionalArguments();
    CliContext context{parser, {}, out, err, Boundary::Client, false, LoadOptions{}};
    if (!boundaryFromKey(parser.value(boundaryOption), &context.boundary)) {
        err << QStringLiteral("tracelane-cli: unknown boundary '%1'; use client, server or engine\n")
                   .arg(parser.value(boundaryOption));
        return ExitUsage;
    }
    context.json = parser.isSet(jsonOption);
    context.loadOptions.strict = parser.isSet(strictOption);
    context.loadOptions.threads = parser.value(threadsOption).toInt();
    context.allAttributes = parser.isSet(allAttributesOption);

    if (positional.isEmpty())
        return runBuiltinCases(context);

    std::map<QString, std::function<int(const CliContext &)>> commands = {
        {QStringLiteral("analyse"), runAnalyse},
        {QStringLiteral("analyze"), runAnalyse},
        {QStringLiteral("critical-path"), runCriticalPath},
        {QStringLiteral("whatif"), runWhatIf},
        {QStringLiteral("goodput"), runGoodput},
        {QStringLiteral("slice"), runSlice},
        {QStringLiteral("exceed"), runExceed},
        {QStringLiteral("compare"), runCompare},
        {QStringLiteral("clickhouse"), runClickHouse},
        {QStringLiteral("stream"), runStream},
        {QStringLiteral("load"), runLoad},
    };
    const QString command = positional.takeFirst();
#ifdef TRACELANE_FULL_CLI
    commands.emplace(QStringLiteral("report"), runReport);
    commands.emplace(QStringLiteral("receive"), runReceive);
#else
    if (needsFullCli(command)) {
        out.flush();
        return execFullCli(argv, err);
    }
#endif
    const auto it = commands.find(command);
    if (it == commands.end()) {
        err << QStringLiteral("tracelane-cli: unknown command '%1'\n\n").arg(command) << parser.helpText();
        return ExitUsage;
    }
    context.arguments = positional;
    // Loads end in a message when memory runs out (TraceFileLoader); an
    // analysis that runs out on what loaded must not abort either.
    int code = ExitFailure;
    try {
        code = it->second(context);
    } catch (const std::bad_alloc &) {
        out.flush();
        err << QStringLiteral("tracelane-cli: out of memory in '%1'; close other programs or analyse a smaller "
                              "part of the trace\n")
                   .arg(command);
        return ExitFailure;
    }
    out.flush();
    err.flush();
    return code;
}
