#include "ReportCommand.h"

#include "ClassOptions.h"
#include "CliContext.h"

#include "ReportWriter.h"
#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/TraceComparison.h"
#include "review/DesignReport.h"
#include "review/RecordDraft.h"
#include "review/RecordJson.h"
#include "store/TraceStore.h"

#include <QCommandLineParser>
#include <QDate>
#include <QFile>
#include <QFileInfo>

#include <cstring>

void addReportOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("out"), QStringLiteral("report: the file to write: .html, .pdf or .md (figures beside it)."),
         QStringLiteral("file")},
        {QStringLiteral("record"),
         QStringLiteral("report: a saved diagnosis record (JSON) to measure on FILE instead of drafting one."),
         QStringLiteral("file")},
        {QStringLiteral("candidate"),
         QStringLiteral("report: a candidate trace compared with FILE at the target percentile (stop-rule verdict)."),
         QStringLiteral("file")},
    });
}

bool wantsReport(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-')
            continue;
        return std::strcmp(argv[i], "report") == 0;
    }
    return false;
}

int runReport(const CliContext &context)
{
    const auto &parser = context.parser;
    const auto usage = [&](const QString &message) {
        context.err << QStringLiteral("tracelane-cli report: %1\n").arg(message);
        return ExitUsage;
    };
    if (context.arguments.size() != 1)
        return usage(QStringLiteral("expected one trace FILE"));
    const QString out = parser.value(QStringLiteral("out"));
    ReportWriter::Format format = ReportWriter::Format::Html;
    if (out.isEmpty() || !ReportWriter::formatOf(out, &format))
        return usage(QStringLiteral("--out FILE.html, FILE.pdf or FILE.md is required"));
    ClassOptions::Values options;
    if (!ClassOptions::read(context, &options))
        return ExitUsage;

    const QString path = context.arguments.first();
    LoadResult load;
    if (!loadForCli(context, path, &load))
        return ExitFailure;
    const std::shared_ptr<const TraceStore> store = load.store;
    const QString trace = QFileInfo(path).fileName();

    DesignReport::Options report;
    report.trace = trace;
    report.classDimensions = options.by;
    report.bands = options.bands;
    report.date = QDate::currentDate().toString(Qt::ISODate);
    if (!options.where.isEmpty()) {
        QString error;
        const RequestSlice where = options.where.apply(store->requests, options.bands, &error);
        if (!error.isEmpty())
            return usage(QStringLiteral("--where: ") + error);
        report.rows = where.rows();
        report.slice = options.where.describe();
        if (report.rows.empty())
            return usage(QStringLiteral("--where %1 matches no request").arg(report.slice));
    }
    if (parser.isSet(QStringLiteral("members")))
        report.members = options.members;

    const RecordDraft::Scope scope{report.rows, trace, report.slice};
    DiagnosisRecord record;
    if (parser.isSet(QStringLiteral("record"))) {
        const QString recordPath = parser.value(QStringLiteral("record"));
        QFile file(recordPath);
        QString error;
        if (!file.open(QIODevice::ReadOnly)) {
            context.err << QStringLiteral("tracelane-cli report: cannot open %1: %2\n").arg(recordPath, file.errorString());
            return ExitFailure;
        }
        if (!RecordJson::read(file.readAll(), &record, &error)) {
            context.err << QStringLiteral("tracelane-cli report: %1: %2\n").arg(recordPath, error);
            return ExitFailure;
        }
        RecordDraft::measure(record, *store, scope);
    } else {
        record = RecordDraft::draft(*store, scope, context.boundary, options.metric, options.percentile);
    }

    if (parser.isSet(QStringLiteral("candidate"))) {
        const QString candidatePath = parser.value(QStringLiteral("candidate"));
        LoadResult candidate;
        if (!loadForCli(context, candidatePath, &candidate))
            return ExitFailure;
        ComparisonSpec spec;
        spec.metric = record.coordinates.metric;
        spec.boundary = record.coordinates.boundary;
        spec.q = record.coordinates.q;
        spec.by = options.by;
        spec.bands = options.bands;
        Phase suspect = Phase::Queue;
        if (phaseFromKey(record.suspect.phase, &suspect))
            spec.suspect = suspect;
        ComparisonSide baseline = ComparisonSide::whole(store, QStringLiteral("baseline %1").arg(trace));
        if (!report.rows.empty())
            baseline.rows = RequestSlice::fromRows(store->requests.rowCount(), report.rows);
        const ComparisonSide candidateSide = ComparisonSide::whole(
            candidate.store, QStringLiteral("candidate %1").arg(QFileInfo(candidatePath).fileName()));
        const auto samples = ComparisonSamples::prepare(baseline, candidateSide, spec);
        auto comparison = std::make_shared<TraceComparison>(TraceComparison::evaluate(*samples, spec));
        report.candidate = QFileInfo(candidatePath).fileName();
        DesignReport::judge(record, *comparison, report.candidate);
        report.comparison = std::move(comparison);
    }

    const ReportDocument document = DesignReport::build(record, store, report);
    QString error;
    if (!ReportWriter::write(document, out, &error)) {
        context.err << QStringLiteral("tracelane-cli report: %1\n").arg(error);
        return ExitFailure;
    }
    context.out << QStringLiteral("wrote %1 (%2 figures)\n").arg(out).arg(document.figures().size());
    return ExitOk;
}
