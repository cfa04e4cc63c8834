#include "LoadVerdict.h"

namespace LoadVerdict {

bool loadedSomething(const LoadResult &result)
{
    return result.ok() && (result.store->requests.rowCount() > 0 || result.store->spans.rowCount() > 0);
}

QString whyNothingLoaded(const LoadResult &result, const QString &fileName)
{
    if (loadedSomething(result))
        return {};
    if (result.cancelled)
        return QStringLiteral("Loading %1 was cancelled.").arg(fileName);
    if (!result.fatalError.isEmpty()) {
        const QString stop = result.fatalError.endsWith(QLatin1Char('.')) ? QString() : QStringLiteral(".");
        return QStringLiteral("%1 was not loaded: %2%3").arg(fileName, result.fatalError, stop);
    }
    const auto &rejected = result.store->rejected;
    if (rejected.empty())
        return QStringLiteral("%1 was not loaded: it holds no request or span record.").arg(fileName);
    RejectedRecord first = rejected.front();
    first.file.clear(); // the file is named already
    const qsizetype count = qsizetype(rejected.size());
    return QStringLiteral("%1 was not loaded: it is not a trace Tracelane can read. %2 %3 rejected, the first: %4.")
        .arg(fileName, QString::number(count),
             count == 1 ? QStringLiteral("record was") : QStringLiteral("records were"), first.toString());
}

} // namespace LoadVerdict
