#pragma once

#include "LineStream.h"
#include "LoadControl.h"
#include "LoadResult.h"
#include "MixedFormats.h"
#include "RequestRowsBuilder.h"

#include <QFileInfo>

// The shared driver of the line-per-record request loaders (AIPerf, Azure CSV,
// Mooncake): streams the file, skips blank lines, rejects over-long ones,
// hands every other line to `readLine(line, rows)` and applies --strict.
// A file with neither a record nor a rejection is an error, not an empty trace.
template<typename ReadLine>
LoadResult loadRecordLines(const QString &path, TraceFormat own, const QString &format, const LoadOptions &options,
                           LoadControl *control, ReadLine &&readLine)
{
    LoadResult result;
    const QFileInfo info(path);
    result.bytes = info.size();
    if (control)
        control->setTotalBytes(result.bytes);
    auto &store = *result.store;
    store.sourceFiles << path;
    store.format = format;
    RequestRowsBuilder rows(store, info.fileName());
    MixedFormats mixed(own);
    QString error;
    const auto visit = [&](const LineView &line) {
        if (line.oversizeBytes > 0) {
            rows.reject(line.number, {}, {}, QStringLiteral("record is longer than the per-record limit"));
            return !options.strict;
        }
        if (line.text.find_first_not_of(" \t") == std::string_view::npos)
            return true;
        const auto before = store.rejected.size();
        readLine(line, rows);
        if (store.rejected.size() > before) {
            // A record of another format says so, not "missing field".
            if (const QString foreign = mixed.foreignReason(line.text); !foreign.isEmpty()) {
                store.rejected.back().field.clear();
                store.rejected.back().reason = foreign;
            }
        }
        return !(options.strict && store.rejected.size() > before);
    };
    if (!streamLines(path, {0, result.bytes}, options.maxRecordBytes, control, visit, &error)) {
        result.fatalError = QStringLiteral("%1: cannot read: %2").arg(path, error);
        return result;
    }
    if (control && control->isCancelled()) {
        result.cancelled = true;
        return result;
    }
    rows.finish();
    if (mixed.any())
        rows.notice(0, mixed.summary());
    if (options.strict && !store.rejected.empty())
        result.fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
    else if (store.requests.isEmpty() && store.rejected.empty())
        result.fatalError = QStringLiteral("%1: no records").arg(path);
    return result;
}
