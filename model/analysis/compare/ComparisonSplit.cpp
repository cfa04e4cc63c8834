#include "ComparisonSplit.h"

#include <QDateTime>
#include <QTimeZone>

#include <algorithm>
#include <limits>

namespace ComparisonSplit {

std::pair<qint64, qint64> sendRange(const TraceStore &store)
{
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    for (const qint64 send : store.requests.stampColumn(Stamp::ClientSend)) {
        if (send == kNoTime)
            continue;
        first = std::min(first, send);
        last = std::max(last, send);
    }
    return first <= last ? std::pair{first, last} : std::pair{kNoTime, kNoTime};
}

// "t = 63000 ms" on a relative clock, or the UTC date-time of an epoch clock.
QString timeText(qint64 ns)
{
    constexpr qint64 kYear2000Ns = 946'684'800'000'000'000;
    if (ns >= kYear2000Ns) {
        return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, QTimeZone::utc())
            .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz 'UTC'"));
    }
    return QStringLiteral("t = %1 ms").arg(QString::number(double(ns) / 1e6, 'f', 3));
}

std::pair<ComparisonSide, ComparisonSide> atTime(const std::shared_ptr<const TraceStore> &store, qint64 splitNs,
                                                 const QString &file)
{
    const auto &sends = store->requests.stampColumn(Stamp::ClientSend);
    std::vector<quint8> before(sends.size(), 0);
    std::vector<quint8> after(sends.size(), 0);
    for (size_t row = 0; row < sends.size(); ++row) {
        if (sends[row] == kNoTime)
            continue;
        (sends[row] < splitNs ? before : after)[row] = 1;
    }
    auto baseline = ComparisonSide::part(store, RequestSlice::fromMask(std::move(before)),
                                         QStringLiteral("%1, requests sent before %2").arg(file, timeText(splitNs)));
    auto candidate
        = ComparisonSide::part(store, RequestSlice::fromMask(std::move(after)),
                               QStringLiteral("%1, requests sent at or after %2").arg(file, timeText(splitNs)));
    return {std::move(baseline), std::move(candidate)};
}

std::pair<ComparisonSide, ComparisonSide> byClasses(const std::shared_ptr<const TraceStore> &store,
                                                    const ClassFilter &baseline, const ClassFilter &candidate,
                                                    const ClassBands &bands, const QString &file, QString *error)
{
    QString baseError;
    QString candError;
    RequestSlice baseRows = baseline.apply(store->requests, bands, &baseError);
    RequestSlice candRows = candidate.apply(store->requests, bands, &candError);
    if (error) {
        QStringList problems;
        if (!baseError.isEmpty())
            problems << QStringLiteral("baseline: ") + baseError;
        if (!candError.isEmpty())
            problems << QStringLiteral("candidate: ") + candError;
        *error = problems.join(QStringLiteral("; "));
    }
    auto base = ComparisonSide::part(store, std::move(baseRows),
                                     QStringLiteral("%1 where %2").arg(file, baseline.describe()));
    auto cand = ComparisonSide::part(store, std::move(candRows),
                                     QStringLiteral("%1 where %2").arg(file, candidate.describe()));
    return {std::move(base), std::move(cand)};
}

} // namespace ComparisonSplit
