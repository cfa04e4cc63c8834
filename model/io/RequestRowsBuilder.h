#pragma once

#include "store/IdIndex.h"
#include "store/TraceStore.h"

#include <QString>

#include <cmath>
#include <exception>

#include <vector>

// Collects flat requests for the loaders of benchmark outputs and workload
// traces (AIPerf, LLMPerf, Azure, Mooncake): rows with whatever stamps the
// format observes (kNoTime elsewhere), class attributes, optional per-token
// client times, duplicate-id checks and rejected records with their reasons.
class RequestRowsBuilder
{
public:
    struct Attribute
    {
        QString key;
        QString text;                 // categorical when non-empty
        double number = std::nan(""); // numeric otherwise
    };

    RequestRowsBuilder(TraceStore &store, QString file);

    // Adds a row; a repeated id is rejected instead. `clientTokenTimes` are the
    // arrival times of the streamed chunks at the client, when the format has them.
    bool add(const RequestTable::Row &row, const std::vector<Attribute> &attributes,
             const std::vector<qint64> &clientTokenTimes = {});

    void reject(qint64 line, const QString &requestId, const QString &field, const QString &reason);
    void notice(qint64 line, const QString &message);

    // Squeezes the columns and attaches the token timeline. Call once.
    void finish();

    qsizetype rowCount() const { return m_store.requests.rowCount(); }

private:
    TraceStore &m_store;
    QString m_file;
    IdIndex m_ids;
    TokenTimeline m_clientTokens;
    bool m_anyTokenTimes = false;
};

// Common numeric helpers for these formats.
namespace RequestRows {

// Seconds, milliseconds or nanoseconds as a double to integer ns (rounded).
qint64 msToNs(double ms);
qint64 secondsToNs(double seconds);

// "invalid JSON at column 51: syntax error ..." from a nlohmann exception,
// without its internal prefix.
QString invalidJson(const std::exception &error);

} // namespace RequestRows
