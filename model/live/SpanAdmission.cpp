#include "SpanAdmission.h"

#include "Utf8.h"

namespace {

QString byteCount(qint64 bytes)
{
    return bytes >= 1024 ? QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1)
                         : QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace

SpanAdmission::Refusal SpanAdmission::checkText(std::string_view text, const QString &field) const
{
    const long long bad = Utf8::firstInvalid(text);
    if (bad >= 0)
        return {field, QStringLiteral("invalid UTF-8 at byte %1").arg(bad)};
    return {};
}

SpanAdmission::Refusal SpanAdmission::checkAttributes(const RecycledList<SpanAttribute> &attributes,
                                                      const QString &field) const
{
    if (qint64(attributes.size()) > m_limits.maxAttributes) {
        return {field,
                QStringLiteral("%1 attributes, over the limit of %2 per span")
                    .arg(attributes.size())
                    .arg(m_limits.maxAttributes)};
    }
    for (const auto &attribute : attributes) {
        const QString key = field + QLatin1Char('.')
            + QString::fromUtf8(attribute.key.data(), qsizetype(qMin<size_t>(attribute.key.size(), 80)));
        if (qint64(attribute.key.size()) > m_limits.maxAttributeBytes)
            return {field,
                    QStringLiteral("a key of %1, over the limit of %2")
                        .arg(byteCount(qint64(attribute.key.size())), byteCount(m_limits.maxAttributeBytes))};
        if (qint64(attribute.value.text.size()) > m_limits.maxAttributeBytes)
            return {key,
                    QStringLiteral("value of %1, over the limit of %2")
                        .arg(byteCount(qint64(attribute.value.text.size())), byteCount(m_limits.maxAttributeBytes))};
        if (const long long bad = Utf8::firstInvalid(attribute.key); bad >= 0)
            return {field, QStringLiteral("a key holds invalid UTF-8 at byte %1").arg(bad)};
        if (const long long bad = Utf8::firstInvalid(attribute.value.text); bad >= 0)
            return {key, QStringLiteral("invalid UTF-8 at byte %1 of the value").arg(bad)};
    }
    return {};
}

SpanAdmission::Refusal SpanAdmission::checkTime(qint64 time, const QString &field) const
{
    if (time == kNoTime || time < 0)
        return {}; // the builder's rules speak about missing and negative times
    const qint64 distance = time > m_now ? time - m_now : m_now - time;
    if (distance <= m_limits.maxClockDistanceNs)
        return {};
    const double days = double(distance) / 86'400e9;
    return {field,
            QStringLiteral("%1 ns is %2 days %3 the receiver's clock, more than the %4-day limit; a "
                           "timestamp in the wrong unit or a broken clock")
                .arg(time)
                .arg(days, 0, 'f', 1)
                .arg(time > m_now ? QStringLiteral("ahead of") : QStringLiteral("behind"))
                .arg(m_limits.maxClockDistanceNs / 86'400'000'000'000LL)};
}

SpanAdmission::Refusal SpanAdmission::check(const SpanRecord &record) const
{
    if (Refusal r = checkText(record.name, QStringLiteral("name")); r.refused())
        return r;
    if (Refusal r = checkText(record.statusMessage, QStringLiteral("status.message")); r.refused())
        return r;
    if (Refusal r = checkAttributes(record.attributes, QStringLiteral("attributes")); r.refused())
        return r;
    if (qint64(record.events.size()) > m_limits.maxEvents)
        return {QStringLiteral("events"),
                QStringLiteral("%1 events, over the limit of %2 per span")
                    .arg(record.events.size())
                    .arg(m_limits.maxEvents)};
    if (qint64(record.links.size()) > m_limits.maxLinks)
        return {
            QStringLiteral("links"),
            QStringLiteral("%1 links, over the limit of %2 per span").arg(record.links.size()).arg(m_limits.maxLinks)};
    for (const auto &event : record.events) {
        if (Refusal r = checkText(event.name, QStringLiteral("events.name")); r.refused())
            return r;
        if (Refusal r = checkAttributes(event.attributes, QStringLiteral("events.attributes")); r.refused())
            return r;
        if (Refusal r = checkTime(event.time, QStringLiteral("events.timeUnixNano")); r.refused())
            return r;
    }
    for (const auto &link : record.links) {
        if (Refusal r = checkAttributes(link.attributes, QStringLiteral("links.attributes")); r.refused())
            return r;
    }
    if (Refusal r = checkTime(record.start, QStringLiteral("startTimeUnixNano")); r.refused())
        return r;
    if (Refusal r = checkTime(record.end, QStringLiteral("endTimeUnixNano")); r.refused())
        return r;
    return SpanTraceBuilder::check(record);
}
