#include "TracelaneContract.h"

#include "AttributeText.h"
#include "TimeLimits.h"
#include "store/Utf8.h"

#include <algorithm>
#include <charconv>

using Utf8::fromStd;

namespace {

std::string stampName(Stamp stamp)
{
    std::string name = stampFieldName(stamp);
    name.resize(name.size() - 3); // drop "_ms"
    return name;
}

bool parseNanoseconds(const std::string &text, qint64 *ns)
{
    const auto result = std::from_chars(text.data(), text.data() + text.size(), *ns);
    return result.ec == std::errc() && result.ptr == text.data() + text.size() && !text.empty() && *ns >= 0;
}

bool readNanoseconds(const SpanAttribute &attribute, qint64 *ns)
{
    if (attribute.value.type == AttributeValue::Type::Int) {
        *ns = attribute.value.integer;
        return *ns >= 0;
    }
    return parseNanoseconds(attribute.value.text, ns);
}

// A time the span's own clock could not have written: more than 30 days from
// the span's start (the same bound as a span's length), e.g. a queue stamp in
// 2077 on a span of 2023. Empty when `ns` is near enough.
QString farFromSpan(qint64 ns, const SpanRecord &record)
{
    if (record.start == kNoTime)
        return {};
    const qint64 distance = ns > record.start ? ns - record.start : record.start - ns;
    if (distance <= TimeLimits::kMaxDurationNs)
        return {};
    return QStringLiteral("%1 ns is more than 30 days from the span's start (%2 ns)").arg(ns).arg(record.start);
}

// A non-decreasing list of ns times from an array attribute.
bool readTimes(const SpanAttribute &attribute, std::vector<qint64> *times, QString *reason)
{
    if (attribute.value.type != AttributeValue::Type::Array) {
        *reason = QStringLiteral("must be an array of integer nanoseconds; ignored");
        return false;
    }
    times->clear();
    times->reserve(attribute.value.elements.size());
    for (size_t i = 0; i < attribute.value.elements.size(); ++i) {
        qint64 ns = 0;
        if (!parseNanoseconds(attribute.value.elements[i], &ns)) {
            *reason = QStringLiteral("element %1 (%2) is not a non-negative integer of nanoseconds; the token "
                                     "times of this span are ignored")
                          .arg(i)
                          .arg(fromStd(attribute.value.elements[i]));
            return false;
        }
        if (!times->empty() && ns < times->back()) {
            *reason = QStringLiteral("token %1 (%2 ns) comes before token %3 (%4 ns); the token times of this "
                                     "span are ignored")
                          .arg(i)
                          .arg(ns)
                          .arg(i - 1)
                          .arg(times->back());
            return false;
        }
        times->push_back(ns);
    }
    return true;
}

// Repeats each client time by its event's token count (v2 client_counts).
bool expandCounts(const SpanAttribute &attribute, std::vector<qint64> *times, QString *reason)
{
    const auto &elements = attribute.value.elements;
    if (attribute.value.type != AttributeValue::Type::Array || elements.size() != times->size()) {
        *reason = QStringLiteral("must be an array with one count per client time (%1); ignored").arg(times->size());
        return false;
    }
    std::vector<qint64> expanded;
    for (size_t i = 0; i < elements.size(); ++i) {
        qint64 count = 0;
        if (!AttributeText::parseCount(elements[i], &count) || count < 1 || count > (1 << 20)) {
            *reason = QStringLiteral("element %1 (%2) is not a count of one token or more; ignored")
                          .arg(i)
                          .arg(fromStd(elements[i]));
            return false;
        }
        expanded.insert(expanded.end(), size_t(count), (*times)[i]);
    }
    *times = std::move(expanded);
    return true;
}

} // namespace

namespace TracelaneContract {

std::string phaseKey(Stamp stamp)
{
    return "tracelane.phase." + stampName(stamp) + "_unix_nano";
}

SpanContract read(const SpanRecord &record, std::vector<Problem> *problems)
{
    SpanContract contract;
    // Most spans carry no contract attribute at all; say so in one pass.
    const auto ours = [](const SpanAttribute &attribute) { return attribute.key.starts_with("tracelane."); };
    const auto tokenEvent = [](const SpanEventRecord &event) { return event.name == kTokenEventName; };
    if (std::none_of(record.attributes.begin(), record.attributes.end(), ours)
        && std::none_of(record.events.begin(), record.events.end(), tokenEvent)) {
        return contract;
    }
    if (const auto *version = record.findAttribute(kVersionKey)) {
        qint64 value = 0;
        if (AttributeText::parseCount(version->value.text, &value))
            contract.version = int(value);
    }
    // Phase stamps: each must be a time, and together they must not go back.
    static const std::array<std::string, kStampCount> keys = [] {
        std::array<std::string, kStampCount> names;
        for (int i = 0; i < kStampCount; ++i)
            names[size_t(i)] = phaseKey(static_cast<Stamp>(i));
        return names;
    }();
    int previous = -1;
    for (int i = 0; i < kStampCount; ++i) {
        const auto *attribute = record.findAttribute(keys[size_t(i)]);
        if (!attribute)
            continue;
        qint64 ns = 0;
        if (!readNanoseconds(*attribute, &ns)) {
            problems->push_back({fromStd(keys[size_t(i)]),
                                 QStringLiteral("%1 is not a non-negative integer of nanoseconds; ignored")
                                     .arg(fromStd(attribute->value.text))});
            continue;
        }
        if (const QString far = farFromSpan(ns, record); !far.isEmpty()) {
            problems->push_back({fromStd(keys[size_t(i)]), far + QStringLiteral("; ignored")});
            continue;
        }
        if (previous >= 0 && ns < contract.stamps[size_t(previous)]) {
            problems->push_back(
                {fromStd(keys[size_t(i)]),
                 QStringLiteral("phase stamps go backwards: %1 (%2 ns) is before %3 (%4 ns); the phase stamps of "
                                "this span are ignored")
                     .arg(fromStd(stampName(static_cast<Stamp>(i))))
                     .arg(ns)
                     .arg(fromStd(stampName(static_cast<Stamp>(previous))))
                     .arg(contract.stamps[size_t(previous)])});
            contract.stamps.fill(kNoTime);
            contract.hasStamps = false;
            break;
        }
        contract.stamps[size_t(i)] = ns;
        contract.hasStamps = true;
        previous = i;
    }
    if (const auto *attribute = record.findAttribute(kLastTokenServerKey)) {
        qint64 ns = 0;
        if (readNanoseconds(*attribute, &ns)) {
            if (const QString far = farFromSpan(ns, record); !far.isEmpty()) {
                problems->push_back({fromStd(kLastTokenServerKey), far + QStringLiteral("; ignored")});
            } else {
                contract.lastTokenServer = ns;
                contract.hasStamps = true;
            }
        }
    }

    QString reason;
    for (const auto &[key, times] :
         {std::pair{kServerTokensKey, &contract.serverTokens}, std::pair{kClientTokensKey, &contract.clientTokens}}) {
        const auto *attribute = record.findAttribute(key);
        if (attribute && !readTimes(*attribute, times, &reason)) {
            problems->push_back({fromStd(key), reason});
            times->clear();
        }
    }
    // v2: tokens per client event; an event of k tokens becomes k equal
    // times, which the request row reads back as one event of k.
    if (const auto *attribute = record.findAttribute(kClientCountsKey); attribute && !contract.clientTokens.empty()) {
        if (!expandCounts(*attribute, &contract.clientTokens, &reason))
            problems->push_back({fromStd(kClientCountsKey), reason});
    }
    // The same times as span events, for producers that emit one per token.
    if (contract.serverTokens.empty() && contract.clientTokens.empty()) {
        for (const auto &event : record.events) {
            if (event.name != kTokenEventName || event.time == kNoTime)
                continue;
            bool server = false;
            qint64 count = 1;
            for (const auto &attribute : event.attributes) {
                if (attribute.key == kTokenSideKey)
                    server = attribute.value.text == "server";
                else if (attribute.key == kTokenCountKey && !AttributeText::parseCount(attribute.value.text, &count))
                    count = 1;
            }
            auto &times = server ? contract.serverTokens : contract.clientTokens;
            times.insert(times.end(), size_t(std::clamp<qint64>(count, 1, 1 << 20)), event.time);
        }
        for (auto *times : {&contract.serverTokens, &contract.clientTokens})
            std::sort(times->begin(), times->end());
    }
    // Token times, sorted: the first and last are the farthest from the span.
    for (const auto &[key, times] :
         {std::pair{kServerTokensKey, &contract.serverTokens}, std::pair{kClientTokensKey, &contract.clientTokens}}) {
        if (times->empty())
            continue;
        for (const qint64 ns : {times->front(), times->back()}) {
            if (const QString far = farFromSpan(ns, record); !far.isEmpty()) {
                problems->push_back({fromStd(key),
                                     QStringLiteral("a token time of ") + far
                                         + QStringLiteral("; the token times of this span are ignored")});
                times->clear();
                break;
            }
        }
    }

    if (const auto *attribute = record.findAttribute(kDependsOnKey)) {
        if (attribute->value.type == AttributeValue::Type::Array)
            contract.dependsOn = attribute->value.elements;
        else if (attribute->value.type == AttributeValue::Type::String && !attribute->value.text.empty())
            contract.dependsOn.push_back(attribute->value.text);
        else
            problems->push_back(
                {fromStd(kDependsOnKey), QStringLiteral("must be an array of span ids (or one span id); ignored")});
    }
    if (const auto *attribute = record.findAttribute(kCategoryKey)) {
        SpanCategory category = SpanCategory::Other;
        if (spanCategoryFromKey(fromStd(attribute->value.text), &category))
            contract.category = category;
        else
            problems->push_back({fromStd(kCategoryKey),
                                 QStringLiteral("unknown category '%1'; ignored").arg(fromStd(attribute->value.text))});
    }
    if (const auto *attribute = record.findAttribute(kContentBearingKey))
        contract.contentBearing = attribute->value.text != "false";
    return contract;
}

SpanLinkRecord::Kind linkKind(const SpanLinkRecord &link)
{
    for (const auto &attribute : link.attributes) {
        if (attribute.key == kLinkTypeKey || attribute.key == "opentracing.ref_type") {
            const std::string &type = attribute.value.text;
            if (type == "depends_on" || type == "dependency")
                return SpanLinkRecord::Kind::Dependency;
            if (type == "follows_from")
                return SpanLinkRecord::Kind::FollowsFrom;
        }
    }
    return link.kind;
}

} // namespace TracelaneContract
