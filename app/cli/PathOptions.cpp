#include "PathOptions.h"

#include "CliContext.h"

#include <QCommandLineParser>

void addPathOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("by-key"),
         QStringLiteral("exceed/critical-path/compare on workflows: group critical-path time by kind, service, "
                        "operation or name (names normalised: ids and numbers do not split groups)."),
         QStringLiteral("key"), QStringLiteral("kind")},
        {QStringLiteral("aggregate"),
         QStringLiteral("critical-path: the slow set's critical paths (--metric, --percentile, --where) against the "
                        "rest: attribution by --by-key and the paths merged into one tree.")},
    });
}

bool readKeyKind(const CliContext &context, SpanKeyKind *kind)
{
    const QString key = context.parser.value(QStringLiteral("by-key"));
    if (spanKeyKindFromKey(key, kind))
        return true;
    context.err << QStringLiteral("tracelane-cli: --by-key '%1': use kind, service, operation or name\n").arg(key);
    return false;
}
