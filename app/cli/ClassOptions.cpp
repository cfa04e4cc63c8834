#include "ClassOptions.h"

#include "CliContext.h"

namespace ClassOptions {

// --percentile is shared with whatif and registered once, by WorkflowOptions;
// it reads the same way here (0-1 or 0-100).
void addTo(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("by"), QStringLiteral("slice: one or two class dimensions, comma-separated."),
         QStringLiteral("dim[,dim]")},
        {QStringLiteral("metric"), QStringLiteral("slice/exceed: ttft, itl, e2e or a phase (queue, prefill, ...)."),
         QStringLiteral("metric"), QStringLiteral("ttft")},
        {QStringLiteral("where"), QStringLiteral("slice/exceed: only requests of these classes (dim=value,...)."),
         QStringLiteral("filter")},
        {QStringLiteral("order"), QStringLiteral("exceed: list members by 'metric' (descending) or 'arrival'."),
         QStringLiteral("order"), QStringLiteral("metric")},
        {QStringLiteral("member"), QStringLiteral("exceed: compare the K-th member with the rest (1-based)."),
         QStringLiteral("K"), QStringLiteral("1")},
        {QStringLiteral("members"), QStringLiteral("exceed: how many members to list."), QStringLiteral("N"),
         QStringLiteral("20")},
        {QStringLiteral("no-rankings"),
         QStringLiteral("exceed on a clickhouse:// URL: leave out the feature rankings and the member comparison, "
                        "which take the server one or two more reads of every row per feature.")},
        {QStringLiteral("prompt-bands"), QStringLiteral("Prompt band edges in tokens (default 512,2k,8k)."),
         QStringLiteral("edges")},
        {QStringLiteral("output-bands"), QStringLiteral("Output band edges in tokens (default 512,2k,8k)."),
         QStringLiteral("edges")},
    });
}

bool read(const CliContext &context, Values *values)
{
    const auto &parser = context.parser;
    const auto fail = [&](const QString &message) {
        context.err << QStringLiteral("tracelane-cli: %1\n").arg(message);
        return false;
    };
    const QString metric = parser.value(QStringLiteral("metric"));
    if (!metricFromKey(metric, &values->metric)) {
        QStringList keys;
        for (const Metric candidate : allMetrics())
            keys << metricKey(candidate);
        return fail(QStringLiteral("unknown metric '%1'; use one of %2").arg(metric, keys.join(QStringLiteral(", "))));
    }
    bool ok = false;
    const QString percentile = parser.value(QStringLiteral("percentile"));
    values->percentile = percentile.isEmpty() ? 0.95 : percentile.toDouble(&ok);
    if (!percentile.isEmpty() && ok && values->percentile > 1.0 && values->percentile < 100.0)
        values->percentile /= 100.0;
    if ((!percentile.isEmpty() && !ok) || !(values->percentile > 0.0 && values->percentile < 1.0))
        return fail(QStringLiteral("--percentile must lie strictly between 0 and 1 (or 0 and 100), e.g. 0.95"));
    if (!ExceedanceSet::orderFromKey(parser.value(QStringLiteral("order")), &values->order))
        return fail(QStringLiteral("--order must be 'metric' or 'arrival'"));
    const qlonglong member = parser.value(QStringLiteral("member")).toLongLong(&ok);
    if (!ok || member < 1)
        return fail(QStringLiteral("--member must be a position of 1 or more"));
    values->member = qsizetype(member - 1);
    values->rankings = !parser.isSet(QStringLiteral("no-rankings"));
    values->members = parser.value(QStringLiteral("members")).toInt(&ok);
    if (!ok || values->members < 0)
        return fail(QStringLiteral("--members must be a count of 0 or more"));
    QString error;
    if (parser.isSet(QStringLiteral("prompt-bands"))
        && !TokenBands::parse(parser.value(QStringLiteral("prompt-bands")), &values->bands.prompt, &error))
        return fail(QStringLiteral("--prompt-bands: ") + error);
    if (parser.isSet(QStringLiteral("output-bands"))
        && !TokenBands::parse(parser.value(QStringLiteral("output-bands")), &values->bands.output, &error))
        return fail(QStringLiteral("--output-bands: ") + error);
    if (!ClassFilter::parse(parser.value(QStringLiteral("where")), &values->where, &error))
        return fail(QStringLiteral("--where: ") + error);
    values->by = parser.value(QStringLiteral("by")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString &key : values->by)
        key = key.trimmed();
    return true;
}

} // namespace ClassOptions
