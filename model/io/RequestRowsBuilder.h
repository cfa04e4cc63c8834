#pragma once

#include "store/IdIndex.h"
#include "store/TraceStore.h"

#include <QString>

#include <nlohmann/json.hpp>

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
    // Parses one record's text (JsonDom: never throws, bounded depth). On
    // invalid JSON the record is rejected ("invalid JSON at column N: ...")
    // and false returned.
    bool parseRecord(std::string_view text, qint64 line, const QString &requestId, nlohmann::json *record);
    // Rejects a record whose reading threw (a field of a type the reader did
    // not expect): the one boundary where a loader's nlohmann exceptions end.
    void rejectUnreadable(qint64 line, const QString &requestId, const std::exception &error);
    // A request that failed at the service (an error response), with when it
    // was sent when the format says: the load view places failures in time.
    void rejectFailure(qint64 line, const QString &requestId, const QString &field, const QString &reason,
                       qint64 sentNs);
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
    qint64 m_tooDeep = 0;
    qint64 m_firstTooDeepLine = 0;
};

// Common numeric helpers for these formats.
namespace RequestRows {

// A time in some unit (ns per unit: 1e9 for seconds, 1e6 for ms) as a
// double to integer ns, rounded once; false when it is not finite or does
// not fit in 64-bit nanoseconds (about ±292 years).
bool toNs(double value, double nsPerUnit, qint64 *ns);

} // namespace RequestRows
