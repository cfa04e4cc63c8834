// The per-token arrays of the seed format: field names, the fast array
// reader the flat scanner calls, the SAX path's element hook, and the checks
// of a whole record's lists. SeedRecordBuilder's scalar half is in
// SeedRecordBuilder.cpp.

#include "SeedTokenTimes.h"

#include "DecimalTime.h"
#include "JsonLexing.h"
#include "SeedRecord.h"
#include "SeedRecordBuilder.h"
#include "store/Utf8.h"

#include <charconv>

using Utf8::fromStd;

namespace {

using Field = SeedTokenTimes::Field;
constexpr qint64 kNsPerMs = 1'000'000;

QString ms(qint64 ns)
{
    return QString::number(double(ns) / 1e6, 'f', 3);
}

constexpr qint64 kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000};

inline bool isDigit(char c)
{
    return unsigned(static_cast<unsigned char>(c)) - unsigned('0') < 10u;
}

// "1234.5678" ms to ns without leaving 64-bit integers: at most 18 digits,
// no exponent, JSON's leading-zero rule. Anything else returns false and the
// caller takes the exact general path (DecimalTime), or the full parser.
inline bool fastMsToNs(std::string_view s, size_t &pos, qint64 *ns)
{
    const char *p = s.data() + pos;
    const char *const end = s.data() + s.size();
    const bool negative = p < end && *p == '-';
    p += negative ? 1 : 0;
    const char *const digitsBegin = p;
    // 13 digits hold epoch milliseconds; beyond 9e12 ms the product could overflow.
    const char *const wholeEnd = end - p > 13 ? p + 13 : end;
    qint64 whole = 0;
    while (p < wholeEnd && isDigit(*p))
        whole = whole * 10 + (*p++ - '0');
    const auto wholeDigits = p - digitsBegin;
    if (wholeDigits == 0 || (p < end && isDigit(*p)) || whole >= 9'000'000'000'000
        || (wholeDigits > 1 && *digitsBegin == '0'))
        return false;
    qint64 fraction = 0;
    int fractionDigits = 0;
    bool roundUp = false;
    if (p < end && *p == '.') {
        ++p;
        const char *const fractionBegin = p;
        const char *const sixEnd = end - p > 6 ? p + 6 : end;
        while (p < sixEnd && isDigit(*p))
            fraction = fraction * 10 + (*p++ - '0');
        fractionDigits = int(p - fractionBegin);
        if (fractionDigits == 6 && p < end && isDigit(*p)) {
            roundUp = *p >= '5'; // sub-nanosecond digits round half away from zero
            while (p < end && isDigit(*p))
                ++p;
        }
        if (p == fractionBegin || p - fractionBegin > 18)
            return false;
    }
    if (p < end && (*p == 'e' || *p == 'E'))
        return false;
    const qint64 value = whole * kNsPerMs + fraction * kPow10[6 - fractionDigits] + (roundUp ? 1 : 0);
    *ns = negative ? -value : value;
    pos = size_t(p - s.data());
    return true;
}

} // namespace

SeedTokenTimes::Field seedTokenFieldOf(std::string_view key)
{
    if (key == "server_token_ms")
        return Field::Server;
    if (key == "client_token_ms")
        return Field::Client;
    if (key == "client_token_counts")
        return Field::ClientCounts;
    return Field::None;
}

QString seedTokenFieldName(SeedTokenTimes::Field field)
{
    switch (field) {
    case Field::Server:
        return QStringLiteral("server_token_ms");
    case Field::Client:
        return QStringLiteral("client_token_ms");
    case Field::ClientCounts:
        return QStringLiteral("client_token_counts");
    case Field::None:
        break;
    }
    return {};
}

bool SeedRecordBuilder::array(std::string_view s, size_t &pos)
{
    if (m_tokenField == Field::None || m_record.tokenTimes.present(m_tokenField) || m_record.hasError())
        return false; // the full parser reports it (nested attribute, repeated key)
    auto &out = m_record.tokenTimes.list(m_tokenField);
    out.clear();
    const bool counts = m_tokenField == Field::ClientCounts;
    size_t p = pos + 1;
    JsonLexing::skipSpace(s, p);
    if (p < s.size() && s[p] == ']') {
        pos = p + 1;
        m_record.tokenTimes.present(m_tokenField) = true;
        return true;
    }
    for (;;) {
        qint64 value = 0;
        if (counts || !fastMsToNs(s, p, &value)) {
            std::string_view lexeme;
            bool integral = false;
            if (!JsonLexing::scanNumber(s, p, &lexeme, &integral))
                return false;
            arrayElement(lexeme, integral, true);
            if (m_record.hasError())
                return false; // let the full parser agree; it reports the same first problem
        } else {
            out.push_back(value);
        }
        JsonLexing::skipSpace(s, p);
        if (p < s.size() && s[p] == ',') {
            ++p;
            JsonLexing::skipSpace(s, p);
            continue;
        }
        if (p < s.size() && s[p] == ']') {
            ++p;
            break;
        }
        return false;
    }
    pos = p;
    m_record.tokenTimes.present(m_tokenField) = true;
    return true;
}

bool SeedRecordBuilder::beginArray()
{
    if (m_tokenField == Field::None)
        return false;
    if (acceptOnce(m_record.tokenTimes.present(m_tokenField))) {
        m_record.tokenTimes.present(m_tokenField) = true;
        m_record.tokenTimes.list(m_tokenField).clear();
    }
    return true;
}

void SeedRecordBuilder::arrayElement(std::string_view lexeme, bool integral, bool number)
{
    if (m_record.hasError())
        return;
    auto &out = m_record.tokenTimes.list(m_tokenField);
    const auto index = out.size();
    if (m_tokenField == Field::ClientCounts) {
        qint64 count = 0;
        const auto parsed = std::from_chars(lexeme.data(), lexeme.data() + lexeme.size(), count);
        if (!number || !integral || parsed.ec != std::errc()) {
            m_record.fail(fromStd(m_key), QStringLiteral("element %1 must be a whole number of tokens").arg(index));
            return;
        }
        out.push_back(count);
        return;
    }
    qint64 ns = 0;
    if (!number) {
        m_record.fail(fromStd(m_key), QStringLiteral("element %1 must be a number of milliseconds").arg(index));
        return;
    }
    if (DecimalTime::toNanoseconds(lexeme, kNsPerMs, &ns) != DecimalTime::Status::Ok) {
        m_record.fail(fromStd(m_key),
                      QStringLiteral("element %1 (%2 ms) is out of range").arg(index).arg(fromStd(lexeme)));
        return;
    }
    out.push_back(ns);
}

void validateSeedTokenTimes(SeedRecord &record)
{
    auto &times = record.tokenTimes;
    if (!times.hasServer && !times.hasClient && !times.hasClientCounts)
        return;
    const qint64 tokens = record.tokens[1];
    const qint64 lastClient = record.stamps[size_t(Stamp::LastTokenClient)];
    // A broken clock rejects the record: order, and the request's own span.
    for (const Field field : {Field::Server, Field::Client}) {
        const auto &list = times.list(field);
        if (list.empty())
            continue;
        const QString name = seedTokenFieldName(field);
        for (size_t i = 1; i < list.size(); ++i) {
            if (list[i] < list[i - 1]) {
                record.fail(name,
                            QStringLiteral("token times are not in time order: element %1 (%2 ms) is before "
                                           "element %3 (%4 ms)")
                                .arg(i)
                                .arg(ms(list[i]), QString::number(i - 1), ms(list[i - 1])));
                return;
            }
        }
        const Stamp firstStamp = field == Field::Server ? Stamp::FirstTokenServer : Stamp::FirstTokenClient;
        const qint64 first = record.stamps[size_t(firstStamp)];
        if (list.front() < first) {
            record.fail(name,
                        QStringLiteral("element 0 (%1 ms) is before %2 (%3 ms)")
                            .arg(ms(list.front()), QString::fromLatin1(stampFieldName(firstStamp)), ms(first)));
            return;
        }
        if (list.back() > lastClient) {
            record.fail(name,
                        QStringLiteral("element %1 (%2 ms) is after last_token_client_ms (%3 ms)")
                            .arg(list.size() - 1)
                            .arg(ms(list.back()), ms(lastClient)));
            return;
        }
    }
    // Lengths that disagree with output_tokens drop the lists, not the request.
    const auto drop = [&times](Field field, const QString &reason) {
        if (times.droppedReason.isEmpty()) {
            times.droppedField = seedTokenFieldName(field);
            times.droppedReason = reason;
        }
        times.list(field).clear();
    };
    if (!times.server.empty() && qint64(times.server.size()) != tokens)
        drop(Field::Server,
             QStringLiteral("has %1 times for %2 output tokens (one per token); not used")
                 .arg(times.server.size())
                 .arg(tokens));
    if (qint64(times.client.size()) > tokens)
        drop(Field::Client,
             QStringLiteral("has %1 events for %2 output tokens: an event carries at least one "
                            "token; not used")
                 .arg(times.client.size())
                 .arg(tokens));
    if (!times.clientCounts.empty()) {
        qint64 sum = 0;
        bool positive = true;
        for (const qint64 count : times.clientCounts) {
            positive = positive && count >= 1;
            sum += count;
        }
        if (times.clientCounts.size() != times.client.size())
            drop(Field::ClientCounts,
                 QStringLiteral("has %1 counts for %2 client events; not used")
                     .arg(times.clientCounts.size())
                     .arg(times.client.size()));
        else if (!positive)
            drop(Field::ClientCounts, QStringLiteral("an event carries at least one token; not used"));
        else if (sum != tokens)
            drop(Field::ClientCounts,
                 QStringLiteral("counts add up to %1 tokens, output_tokens is %2; not used").arg(sum).arg(tokens));
    }
}
