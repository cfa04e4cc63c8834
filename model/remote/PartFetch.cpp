#include "PartFetch.h"

#include "clickhouse/ClickHouseClient.h"
#include "io/LoadControl.h"
#include "store/TraceStore.h"

namespace PartFetch {

LoadResult stopped(LoadResult &&result, const LoadControl *control, const QString &error)
{
    if (control && control->isCancelled())
        result.cancelled = true;
    else
        result.fatalError = error;
    return std::move(result);
}

bool readParts(const ClickHouseClient &client, const std::vector<QString> &parts, LoadResult &result,
               const LoadOptions &options, LoadControl *control, const QString &where,
               const std::function<void(std::string_view line, qint64 number)> &read, QString *error)
{
    const TraceStore &store = *result.store;
    qint64 number = 0;
    for (const QString &sql : parts) {
        QByteArray answer;
        if (!client.run(sql, &answer, error))
            return false;
        result.bytes += answer.size();
        qint64 lines = 0;
        qsizetype begin = 0;
        while (begin < answer.size()) {
            qsizetype end = answer.indexOf('\n', begin);
            if (end < 0)
                end = answer.size();
            if (end > begin) {
                read(std::string_view(answer.constData() + begin, size_t(end - begin)), ++number);
                ++lines;
                if (options.strict && !store.rejected.empty()) {
                    const RejectedRecord &first = store.rejected.front();
                    *error = QStringLiteral("%1 %2, %3: %4").arg(where).arg(first.line).arg(first.field, first.reason);
                    return false;
                }
            }
            begin = end + 1;
        }
        if (control) {
            control->addProcessed(lines, lines);
            if (control->isCancelled()) {
                error->clear();
                return false;
            }
        }
    }
    return true;
}

} // namespace PartFetch
