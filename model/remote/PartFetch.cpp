#include "PartFetch.h"

#include "clickhouse/ClickHouseClient.h"
#include "io/LoadControl.h"
#include "store/TraceStore.h"

#include <QThread>

#include <atomic>
#include <memory>

namespace {

// One part's SELECT, run on a thread of its own while the part before it is
// read: the servers produce and send the next rows while this process parses
// the last ones, instead of each waiting for the other. Dropped before its
// answer is taken (a failed part, a rejection in a strict load), it stops its
// request within the client's poll interval.
class PartAnswer
{
public:
    PartAnswer(const ClickHouseClient &client, QString sql)
        : m_client(client.stoppingAlsoWhen([this] { return m_abandoned.load(std::memory_order_relaxed); }))
        , m_thread(QThread::create([this, sql = std::move(sql)] { m_ok = m_client.run(sql, &m_answer, &m_error); }))
    {
        m_thread->start();
    }
    PartAnswer(const PartAnswer &) = delete;
    PartAnswer &operator=(const PartAnswer &) = delete;
    ~PartAnswer()
    {
        m_abandoned.store(true, std::memory_order_relaxed);
        m_thread->wait();
    }

    // Waits for the answer; false with the client's error.
    bool take(QByteArray *answer, QString *error)
    {
        m_thread->wait();
        if (!m_ok) {
            *error = m_error;
            return false;
        }
        *answer = std::move(m_answer);
        return true;
    }

private:
    std::atomic<bool> m_abandoned{false};
    ClickHouseClient m_client;
    QByteArray m_answer;
    QString m_error;
    bool m_ok = false;
    std::unique_ptr<QThread> m_thread;
};

} // namespace

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
    std::unique_ptr<PartAnswer> next;
    if (!parts.empty())
        next = std::make_unique<PartAnswer>(client, parts.front());
    for (size_t part = 0; part < parts.size(); ++part) {
        QByteArray answer;
        if (!next->take(&answer, error))
            return false;
        next = part + 1 < parts.size() ? std::make_unique<PartAnswer>(client, parts[part + 1]) : nullptr;
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
