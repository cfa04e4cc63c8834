#include "TraceSource.h"

#include "OtelTracesLoader.h"
#include "TracelaneTableLoader.h"

#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerTableKind.h"
#include "io/LoadControl.h"
#include "io/TraceFileLoader.h"

#include <QFileInfo>

namespace TraceSource {

bool isUrl(const QString &pathOrUrl)
{
    return ClickHouseSource::isUrl(pathOrUrl);
}

QString displayName(const QString &pathOrUrl)
{
    if (pathOrUrl == QLatin1String("-"))
        return QStringLiteral("standard input");
    if (!isUrl(pathOrUrl))
        return QFileInfo(pathOrUrl).fileName();
    ClickHouseSource source;
    QString error;
    return ClickHouseSource::parse(pathOrUrl, &source, &error) ? source.display() : pathOrUrl;
}

QString canonical(const QString &pathOrUrl)
{
    if (isUrl(pathOrUrl) || pathOrUrl == QLatin1String("-"))
        return pathOrUrl;
    return QFileInfo(pathOrUrl).absoluteFilePath();
}

LoadResult load(const QString &pathOrUrl, const LoadOptions &options, LoadControl *control)
{
    if (!isUrl(pathOrUrl))
        return TraceFileLoader::load(pathOrUrl, options, control);
    LoadResult failed;
    ClickHouseSource source;
    if (!ClickHouseSource::parse(pathOrUrl, &source, &failed.fatalError))
        return failed;
    const ClickHouseClient client(source, [control] { return control && control->isCancelled(); });
    ServerTableKind kind = ServerTableKind::Unknown;
    if (!ServerTable::kind(client, &kind, &failed.fatalError)) {
        failed.cancelled = control && control->isCancelled();
        return failed;
    }
    switch (kind) {
    case ServerTableKind::OtelTraces:
        return OtelTracesLoader::load(source, options, control);
    case ServerTableKind::Missing:
        failed.fatalError
            = QStringLiteral("%1: no table %2.%3 on that server").arg(source.display(), source.database, source.table);
        break;
    case ServerTableKind::Tracelane: {
        LoadResult result = TracelaneTableLoader::load(source, options, control);
        if (result.store && source.sampleOneIn > 1 && result.fatalError.isEmpty())
            result.store->serverUrl = ClickHouseSource::withSample(pathOrUrl, 1);
        return result;
    }
    case ServerTableKind::Unknown:
        failed.fatalError = QStringLiteral("%1 is neither Tracelane's requests table nor the OpenTelemetry "
                                           "Collector's otel_traces (no TraceId, SpanAttributes and Duration columns)")
                                .arg(source.display());
        break;
    }
    return failed;
}

} // namespace TraceSource
