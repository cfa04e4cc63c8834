#include "TraceCoverage.h"

#include "store/TraceStore.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace {

QString withoutNumbers(const QString &reason)
{
    static const QRegularExpression numbers(QStringLiteral("-?\\d+(\\.\\d+)?"));
    QString text = reason;
    return text.replace(numbers, QStringLiteral("#"));
}

// Distinct values of one resource attribute over the trace's resources.
QStringList resourceValues(const SpanTable &spans, std::string_view key)
{
    QStringList values;
    for (const SpanTable::AttributeRange &range : spans.resources()) {
        for (quint32 i = range.begin; i < range.end; ++i) {
            const SpanTable::Attribute &attribute = spans.sharedAttributes()[i];
            if (spans.strings().view(attribute.key()) == key) {
                const QString value = spans.text(attribute.value);
                if (!values.contains(value))
                    values.append(value);
            }
        }
    }
    return values;
}

QString listed(const QStringList &values)
{
    constexpr int kShown = 4;
    if (values.size() <= kShown)
        return values.join(QStringLiteral(", "));
    return values.mid(0, kShown).join(QStringLiteral(", "))
        + QStringLiteral(" and %1 more").arg(values.size() - kShown);
}

} // namespace

namespace TraceCoverage {

bool isClockDefect(const QString &reason)
{
    static const QRegularExpression clock(
        QStringLiteral("monotonic|before it starts|negative time|ends before|clock|beyond 2262|longer than 30 days"),
        QRegularExpression::CaseInsensitiveOption);
    return clock.match(reason).hasMatch();
}

TraceBoundaries boundaries(const TraceStore &store, std::span<const qint32> rows, const QString &trace)
{
    const RequestTable &table = store.requests;
    TraceBoundaries result;
    result.trace = trace;
    result.format = store.format;
    result.requests = rows.empty() ? table.rowCount() : qint64(rows.size());
    result.spans = store.spans.rowCount();
    result.workflows = store.workflows.rowCount();

    std::array<qint64, kPhaseCount> observed{};
    const auto count = [&](qsizetype row) {
        for (const Phase phase : kAllPhases) {
            if (table.phaseNs(row, phase) != kNoTime)
                ++observed[size_t(phase)];
        }
    };
    if (rows.empty()) {
        for (qsizetype row = 0; row < table.rowCount(); ++row)
            count(row);
    } else {
        for (const qint32 row : rows)
            count(row);
    }
    for (const Phase phase : kAllPhases)
        result.phases.emplace_back(phase, observed[size_t(phase)]);

    result.rejected = qint64(store.rejected.size());
    QHash<QString, qint64> reasons;
    QStringList order;
    qint64 clockDefects = 0;
    QString clockExample;
    for (const RejectedRecord &record : store.rejected) {
        QString key = withoutNumbers(record.reason);
        if (!record.field.isEmpty())
            key = record.field + QStringLiteral(": ") + key;
        if (!reasons.contains(key))
            order.append(key);
        ++reasons[key];
        if (isClockDefect(record.reason)) {
            ++clockDefects;
            if (clockExample.isEmpty())
                clockExample = record.toString();
        }
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](const QString &a, const QString &b) { return reasons.value(a) > reasons.value(b); });
    for (const QString &reason : order.mid(0, kMaxReasons))
        result.rejectedReasons.push_back({reason, reasons.value(reason)});

    if (clockDefects > 0) {
        result.clockCaveats.append(
            QStringLiteral("%1 record(s) rejected for broken clocks (a broken clock is a measurement defect, "
                           "not a fast phase), e.g. %2")
                .arg(clockDefects)
                .arg(clockExample));
    }
    const auto seen = [&](Stamp stamp) {
        return std::any_of(table.stampColumn(stamp).begin(), table.stampColumn(stamp).end(),
                           [](qint64 t) { return t != kNoTime; });
    };
    if (store.spans.isEmpty() && seen(Stamp::ClientSend) && seen(Stamp::GatewayArrival)) {
        result.clockCaveats.append(
            QStringLiteral("client stamps (send, first and last token at the client) and server stamps come "
                           "from different hosts: network_in and network_to_first include their clock offset"));
    }
    QStringList hosts = resourceValues(store.spans, "host.name");
    const QStringList services = resourceValues(store.spans, "service.name");
    if (hosts.size() > 1) {
        result.clockCaveats.append(QStringLiteral("spans come from %1 hosts (%2): gaps between spans of different "
                                                  "hosts carry their clock offset; durations are local")
                                       .arg(hosts.size())
                                       .arg(listed(hosts)));
    } else if (services.size() > 1) {
        result.clockCaveats.append(QStringLiteral("spans come from %1 services (%2), possibly on different hosts: "
                                                  "gaps between their spans may carry clock offsets")
                                       .arg(services.size())
                                       .arg(listed(services)));
    }
    for (const LoadNotice &notice : store.notices) {
        if (notice.message.contains(QStringLiteral("time"), Qt::CaseInsensitive) && result.clockCaveats.size() < 8)
            result.clockCaveats.append(notice.toString());
    }
    return result;
}

} // namespace TraceCoverage
