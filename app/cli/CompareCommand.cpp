#include "CompareCommand.h"

#include "ClassOptions.h"
#include "CliContext.h"
#include "PathOptions.h"

#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/ComparisonSplit.h"
#include "analysis/compare/SideNames.h"
#include "analysis/compare/TraceComparison.h"
#include "io/DecimalTime.h"
#include "io/IsoTime.h"
#include "io/TraceFileLoader.h"
#include "remote/TraceSource.h"
#include "report/ComparisonJson.h"
#include "report/ComparisonText.h"
#include "report/ReportText.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

bool readNumber(const CliContext &context, const QString &option, double *value, bool positive)
{
    if (!context.parser.isSet(option))
        return true;
    bool ok = false;
    *value = context.parser.value(option).toDouble(&ok);
    if (!ok || !std::isfinite(*value) || (positive && *value <= 0.0)) {
        context.err << QStringLiteral("tracelane-cli compare: --%1 expects a %2number of milliseconds\n")
                           .arg(option, positive ? QStringLiteral("positive ") : QString());
        return false;
    }
    return true;
}

QString sideLabel(const QString &name, const QString &format, const TraceStore &store)
{
    return QStringLiteral("%1 (%2, %3 requests, %4 rejected)")
        .arg(name, format)
        .arg(store.requests.rowCount())
        .arg(store.rejected.size());
}

void printLoadProblems(const CliContext &context, const QString &path, const TraceStore &store)
{
    if (store.rejected.empty())
        return;
    context.err << QStringLiteral("%1: ").arg(TraceSource::displayName(path))
                << ReportText::rejectedSummary(store.rejected, 3) << '\n';
}

} // namespace

void addCompareOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("slo"),
         QStringLiteral("compare: SLO threshold of the metric in ms; misses count above it (default: above the "
                        "baseline's own percentile)."),
         QStringLiteral("ms")},
        {QStringLiteral("predicted-saving"),
         QStringLiteral(
             "compare: the saving a what-if predicted at the target percentile, shown beside the observed one."),
         QStringLiteral("ms")},
        {QStringLiteral("suspect"),
         QStringLiteral("compare: the phase the change should move (default: the one carrying the baseline's tail)."),
         QStringLiteral("phase")},
        {QStringLiteral("tolerance"),
         QStringLiteral("compare: how far a guardrail may regress (0.05 = 5%; default 0.05)."), QStringLiteral("f"),
         QStringLiteral("0.05")},
        {QStringLiteral("baseline-where"), QStringLiteral("compare one FILE: the baseline's requests (dim=value,...)."),
         QStringLiteral("filter")},
        {QStringLiteral("candidate-where"),
         QStringLiteral("compare one FILE: the candidate's requests (dim=value,...)."), QStringLiteral("filter")},
        {QStringLiteral("split-at"),
         QStringLiteral("compare one FILE: requests sent before T are the baseline, the rest the candidate "
                        "(1500 = ms on the trace clock, 90s, +10min after the first send, or an ISO date-time)."),
         QStringLiteral("T")},
    });
}

bool parseSplitTime(const QString &text, qint64 firstSendNs, qint64 *ns, QString *error)
{
    QString value = text.trimmed();
    const bool relative = value.startsWith(QLatin1Char('+'));
    if (relative)
        value.remove(0, 1);
    if (!relative && value.contains(QLatin1Char('-')) && value.size() >= 10 && value[4] == QLatin1Char('-')) {
        const QByteArray utf8 = value.toUtf8();
        if (IsoTime::toNanoseconds(std::string_view(utf8.constData(), size_t(utf8.size())), ns))
            return true;
        *error = QStringLiteral("'%1' is not an ISO-8601 date-time").arg(text);
        return false;
    }
    // (suffix, power-of-ten unit the decimal is read in, whole multiple of it)
    struct Unit
    {
        const char *suffix;
        qint64 decimalUnit;
        qint64 multiple;
    };
    static const Unit units[] = {
        {"ns", 1, 1},
        {"us", 1'000, 1},
        {"\u00b5s", 1'000, 1},
        {"ms", 1'000'000, 1},
        {"min", 1'000'000'000, 60},
        {"s", 1'000'000'000, 1},
        {"h", 1'000'000'000, 3600},
    };
    Unit unit{"", 1'000'000, 1}; // plain numbers are ms, the seed format's unit
    for (const Unit &candidate : units) {
        const QString suffix = QString::fromUtf8(candidate.suffix);
        if (value.endsWith(suffix)) {
            value.chop(suffix.size());
            unit = candidate;
            break;
        }
    }
    const QByteArray number = value.trimmed().toUtf8();
    qint64 parsed = 0;
    if (number.isEmpty()
        || DecimalTime::toNanoseconds(std::string_view(number.constData(), size_t(number.size())), unit.decimalUnit,
                                      &parsed)
            != DecimalTime::Status::Ok
        || __builtin_mul_overflow(parsed, unit.multiple, &parsed)) {
        *error = QStringLiteral("'%1' is not a time: use 1500 (ms on the trace clock), 90s, +10min or an ISO "
                                "date-time")
                     .arg(text);
        return false;
    }
    if (relative && firstSendNs == kNoTime) {
        *error = QStringLiteral("no request has a send time, so '+%1' has nothing to count from").arg(value);
        return false;
    }
    *ns = relative ? firstSendNs + parsed : parsed;
    return true;
}

int runCompare(const CliContext &context)
{
    const auto &parser = context.parser;
    const bool byWhere
        = parser.isSet(QStringLiteral("baseline-where")) || parser.isSet(QStringLiteral("candidate-where"));
    const bool byTime = parser.isSet(QStringLiteral("split-at"));
    const auto usage = [&](const QString &message) {
        context.err << QStringLiteral("tracelane-cli compare: %1\n").arg(message);
        return ExitUsage;
    };
    if (byWhere && byTime)
        return usage(QStringLiteral("split one file either by class (--baseline-where/--candidate-where) or at a "
                                    "time (--split-at), not both"));
    if (byWhere && !(parser.isSet(QStringLiteral("baseline-where")) && parser.isSet(QStringLiteral("candidate-where"))))
        return usage(QStringLiteral("--baseline-where and --candidate-where go together"));
    const bool oneFile = byWhere || byTime;
    if (context.arguments.size() != (oneFile ? 1 : 2)) {
        return usage(oneFile ? QStringLiteral("a split compares one FILE with itself; give exactly one FILE")
                             : QStringLiteral("expected BASELINE and CANDIDATE files (or one FILE with "
                                              "--baseline-where/--candidate-where or --split-at)"));
    }
    ClassOptions::Values options;
    if (!ClassOptions::read(context, &options))
        return ExitUsage;
    if (options.by.size() > 2)
        return usage(QStringLiteral("--by takes at most two dimensions"));
    ComparisonSpec spec;
    spec.metric = options.metric;
    spec.boundary = context.boundary;
    spec.by = options.by;
    spec.bands = options.bands;
    spec.q = options.percentile;
    // Workflow traces: the candidate's mean total minus the baseline's split
    // over critical-path time by this key.
    if (!readKeyKind(context, &spec.pathKey))
        return ExitUsage;
    if (!readNumber(context, QStringLiteral("slo"), &spec.sloMs, true)
        || !readNumber(context, QStringLiteral("predicted-saving"), &spec.predictedSavingMs, false))
        return ExitUsage;
    bool ok = false;
    spec.tolerance = parser.value(QStringLiteral("tolerance")).toDouble(&ok);
    if (!ok || !(spec.tolerance >= 0.0 && spec.tolerance < 1.0))
        return usage(QStringLiteral("--tolerance must lie in [0, 1), e.g. 0.05 for 5%"));
    if (parser.isSet(QStringLiteral("suspect"))) {
        Phase phase = Phase::Queue;
        if (!phaseFromKey(parser.value(QStringLiteral("suspect")), &phase)) {
            QStringList keys;
            for (const Phase candidate : kAllPhases)
                keys << phaseKey(candidate);
            return usage(QStringLiteral("unknown phase '%1'; use one of %2")
                             .arg(parser.value(QStringLiteral("suspect")), keys.join(QStringLiteral(", "))));
        }
        spec.suspect = phase;
    }
    ClassFilter baseFilter;
    ClassFilter candFilter;
    QString error;
    if (byWhere
        && (!ClassFilter::parse(parser.value(QStringLiteral("baseline-where")), &baseFilter, &error)
            || !ClassFilter::parse(parser.value(QStringLiteral("candidate-where")), &candFilter, &error)))
        return usage(QStringLiteral("--baseline-where/--candidate-where: ") + error);

    ComparisonSide baseline;
    ComparisonSide candidate;
    if (oneFile) {
        const QString path = context.arguments.first();
        LoadResult load;
        if (!loadForCli(context, path, &load))
            return ExitFailure;
        printLoadProblems(context, path, *load.store);
        const QString file = TraceSource::displayName(path);
        std::shared_ptr<const TraceStore> store = load.store;
        if (byTime) {
            qint64 split = 0;
            const auto [first, last] = ComparisonSplit::sendRange(*store);
            if (!parseSplitTime(parser.value(QStringLiteral("split-at")), first, &split, &error))
                return usage(QStringLiteral("--split-at: ") + error);
            std::tie(baseline, candidate) = ComparisonSplit::atTime(store, split, file);
            if (first != kNoTime && (split <= first || split > last)) {
                context.err << QStringLiteral("tracelane-cli compare: --split-at lies outside the requests' send "
                                              "times (%1 .. %2 ns on the trace clock), so one side is empty\n")
                                   .arg(first)
                                   .arg(last);
            }
        } else {
            std::tie(baseline, candidate)
                = ComparisonSplit::byClasses(store, baseFilter, candFilter, options.bands, file, &error);
            if (!error.isEmpty())
                return usage(error);
        }
    } else {
        LoadResult loads[2];
        for (int i = 0; i < 2; ++i) {
            if (!loadForCli(context, context.arguments[i], &loads[i]))
                return ExitFailure;
            printLoadProblems(context, context.arguments[i], *loads[i].store);
        }
        const QString &basePath = context.arguments[0];
        const QString &candPath = context.arguments[1];
        // Two runs of one benchmark often write the same file name: name each
        // by the shortest part of its path that tells them apart.
        const auto [baseName, candName] = SideNames::distinguish(basePath, candPath);
        baseline = ComparisonSide::whole(
            loads[0].store, sideLabel(baseName, traceFormatName(TraceFileLoader::detect(basePath)), *loads[0].store));
        candidate = ComparisonSide::whole(
            loads[1].store, sideLabel(candName, traceFormatName(TraceFileLoader::detect(candPath)), *loads[1].store));
    }
    if (!options.where.isEmpty()) {
        // --where narrows both sides to the same classes.
        for (ComparisonSide *side : {&baseline, &candidate}) {
            QString whereError;
            const RequestSlice where = options.where.apply(side->table(), options.bands, &whereError);
            if (!whereError.isEmpty())
                return usage(QStringLiteral("--where: ") + whereError);
            side->rows = side->rows.intersected(where);
            side->label += QStringLiteral(", where ") + options.where.describe();
        }
    }

    const auto samples = ComparisonSamples::prepare(baseline, candidate, spec);
    const TraceComparison comparison = TraceComparison::evaluate(*samples, spec);
    if (context.json)
        context.out << QString::fromStdString(ComparisonJson::report(comparison).dump(2)) << '\n';
    else
        context.out << ComparisonText::report(comparison) << '\n';
    if (!comparison.ok()) {
        context.err << QStringLiteral("tracelane-cli compare: cannot compare: %1\n").arg(comparison.error);
        return ExitFailure;
    }
    return ExitOk;
}
