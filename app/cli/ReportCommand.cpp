#include "ReportCommand.h"

#include "ClassOptions.h"
#include "CliContext.h"

#include "ReportWriter.h"
#include "remote/TraceSource.h"
#include "review/DesignReport.h"
#include "review/RecordDraft.h"
#include "review/RecordJson.h"
#include "review/ReportComparison.h"
#include "review/SessionJson.h"
#include "review/SessionReport.h"
#include "store/TraceStore.h"

#include <QCommandLineParser>
#include <QDate>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <optional>

namespace {

// A session given instead of a trace: read it, find its trace, check that
// the file still holds what it held (a changed trace is reported; the run
// still writes the report, and fails).
bool readSession(const CliContext &context, const QString &path, Session *session, QStringList *changed)
{
    QFile file(path);
    QString error;
    if (!file.open(QIODevice::ReadOnly)) {
        context.err << QStringLiteral("tracelane-cli report: cannot open %1: %2\n").arg(path, file.errorString());
        return false;
    }
    if (!SessionJson::read(file.readAll(), QFileInfo(path).absolutePath(), session, &error)) {
        context.err << QStringLiteral("tracelane-cli report: %1: %2\n").arg(path, error);
        return false;
    }
    if (session->traces.empty()) {
        context.err << QStringLiteral("tracelane-cli report: %1: the session names no trace\n").arg(path);
        return false;
    }
    for (const SessionTrace &trace : {session->traces.front(), session->candidate}) {
        if (trace.isEmpty())
            continue;
        if (!TraceSource::isUrl(trace.path) && !QFileInfo::exists(trace.path)) {
            context.err << QStringLiteral("tracelane-cli report: the session's trace was not found: %1\n")
                               .arg(QDir::toNativeSeparators(trace.path));
            return false;
        }
        if (!trace.fingerprint.isKnown())
            continue;
        const TraceFingerprint now = TraceFingerprint::of(trace.path);
        if (now != trace.fingerprint)
            changed->append(
                QStringLiteral("the trace %1 changed since the session was saved (then %2 bytes, SHA-256 "
                               "%3\u2026; now %4 bytes, SHA-256 %5\u2026): the report is of its new content")
                    .arg(QDir::toNativeSeparators(trace.path))
                    .arg(trace.fingerprint.bytes)
                    .arg(trace.fingerprint.sha256.left(12))
                    .arg(now.bytes)
                    .arg(now.sha256.left(12)));
    }
    return true;
}

} // namespace

int runReport(const CliContext &context)
{
    const auto &parser = context.parser;
    const auto usage = [&](const QString &message) {
        context.err << QStringLiteral("tracelane-cli report: %1\n").arg(message);
        return ExitUsage;
    };
    if (context.arguments.size() != 1)
        return usage(QStringLiteral("expected one trace FILE or one SESSION.tracelane"));
    const QString out = parser.value(QStringLiteral("out"));
    ReportWriter::Format format = ReportWriter::Format::Html;
    if (out.isEmpty() || !ReportWriter::formatOf(out, &format))
        return usage(QStringLiteral("--out FILE.html, FILE.pdf or FILE.md is required"));
    ClassOptions::Values options;
    if (!ClassOptions::read(context, &options))
        return ExitUsage;

    // A session brings its trace, slice, classes, workflow, what-if, record
    // and compared trace; options given on the command line replace them.
    QString path = context.arguments.first();
    std::optional<Session> session;
    QStringList changed;
    if (SessionJson::isSession(path)) {
        session.emplace();
        if (!readSession(context, path, &*session, &changed))
            return ExitFailure;
        path = session->traces.front().path;
    }
    LoadResult load;
    if (!loadForCli(context, path, &load))
        return ExitFailure;
    const std::shared_ptr<const TraceStore> store = load.store;
    const QString trace = TraceSource::displayName(path);

    DesignReport::Options report;
    QStringList notes;
    if (session)
        report = SessionReport::options(*session, *store, &notes);
    report.trace = trace;
    if (!session || parser.isSet(QStringLiteral("by")))
        report.classDimensions = options.by;
    if (!session || parser.isSet(QStringLiteral("prompt-bands")))
        report.bands.prompt = options.bands.prompt;
    if (!session || parser.isSet(QStringLiteral("output-bands")))
        report.bands.output = options.bands.output;
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
            context.err
                << QStringLiteral("tracelane-cli report: cannot open %1: %2\n").arg(recordPath, file.errorString());
            return ExitFailure;
        }
        if (!RecordJson::read(file.readAll(), &record, &error)) {
            context.err << QStringLiteral("tracelane-cli report: %1: %2\n").arg(recordPath, error);
            return ExitFailure;
        }
        RecordDraft::measure(record, *store, scope);
    } else if (session && session->hasRecord) {
        // As the session saved it: measured where its author measured it
        // (the Record dock's "Measure on View"), as File > Export Report does.
        record = session->record;
    } else if (session) {
        record = RecordDraft::draft(*store, scope, session->boundary, session->metric, session->exceedanceQ);
    } else {
        record = RecordDraft::draft(*store, scope, context.boundary, options.metric, options.percentile);
    }

    QString candidatePath = parser.value(QStringLiteral("candidate"));
    if (candidatePath.isEmpty() && session)
        candidatePath = session->candidate.path;
    if (!candidatePath.isEmpty()) {
        LoadResult candidate;
        if (!loadForCli(context, candidatePath, &candidate))
            return ExitFailure;
        ReportComparison::attach(record, report, store, candidate.store, TraceSource::displayName(candidatePath));
    }

    const ReportDocument document = DesignReport::build(record, store, report);
    QString error;
    if (!ReportWriter::write(document, out, &error)) {
        context.err << QStringLiteral("tracelane-cli report: %1\n").arg(error);
        return ExitFailure;
    }
    context.out << QStringLiteral("wrote %1 (%2 figures)\n").arg(out).arg(document.figures().size());
    for (const QString &note : std::as_const(notes))
        context.err << QStringLiteral("tracelane-cli report: note: %1\n").arg(note);
    for (const QString &problem : std::as_const(changed))
        context.err << QStringLiteral("tracelane-cli report: %1\n").arg(problem);
    return changed.isEmpty() ? ExitOk : ExitFailure;
}
