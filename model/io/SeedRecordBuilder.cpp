#include "SeedRecordBuilder.h"

#include "DecimalTime.h"
#include "TokenCount.h"
#include "store/Utf8.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

using Utf8::fromStd;

namespace {

constexpr qint64 kNsPerMs = 1'000'000;

// Keys are short: compared eight bytes at a time inline rather than by a
// call to memcmp for every key of every record.
bool sameKey(const std::string &known, std::string_view key)
{
    if (known.size() != key.size())
        return false;
    size_t pos = 0;
    for (; pos + 8 <= key.size(); pos += 8) {
        quint64 a = 0;
        quint64 b = 0;
        std::memcpy(&a, known.data() + pos, 8);
        std::memcpy(&b, key.data() + pos, 8);
        if (a != b)
            return false;
    }
    for (; pos < key.size(); ++pos) {
        if (known[pos] != key[pos])
            return false;
    }
    return true;
}

} // namespace

QString SeedRecordBuilder::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Text:
        return QStringLiteral("a string");
    case Kind::Boolean:
        return QStringLiteral("a boolean");
    case Kind::Null:
        return QStringLiteral("null");
    case Kind::Nested:
        return QStringLiteral("an object or array");
    default:
        return QStringLiteral("a number");
    }
}

void SeedRecordBuilder::key(std::string_view key)
{
    // Records of one file nearly always list their keys in the same order:
    // the key at this position in the records before is tried first.
    auto &known = m_record.knownKeys;
    const size_t position = m_record.keysSeen++;
    if (position < known.size() && sameKey(known[position].key, key)) {
        m_key = known[position].key; // no copy: it stays until the next key
        m_field = static_cast<SeedField>(known[position].field);
        m_tokenField = static_cast<SeedTokenTimes::Field>(known[position].tokenField);
        m_kept = known[position].kept;
        return;
    }
    m_keyText.assign(key);
    m_key = m_keyText;
    m_field = seedFieldOf(key);
    m_tokenField = m_field == SeedField::NotAField ? seedTokenFieldOf(key) : SeedTokenTimes::Field::None;
    m_kept = !m_record.projection || m_record.projection->keeps(key);
    const SeedRecord::KnownKey entry{m_keyText, static_cast<int>(m_field), static_cast<int>(m_tokenField), m_kept};
    if (position < known.size())
        known[position] = entry;
    else if (position == known.size() && position < SeedRecord::kMaxKnownKeys)
        known.push_back(entry);
}

void SeedRecordBuilder::text(std::string_view value)
{
    dispatch(Kind::Text, value, 0, 0.0, false);
}
void SeedRecordBuilder::integer(qint64 value)
{
    dispatch(Kind::Integer, {}, value, double(value), false);
}
void SeedRecordBuilder::hugeInteger(double approximate)
{
    dispatch(Kind::HugeInteger, {}, 0, approximate, false);
}
void SeedRecordBuilder::boolean(bool value)
{
    dispatch(Kind::Boolean, {}, 0, 0.0, value);
}
void SeedRecordBuilder::null()
{
    dispatch(Kind::Null, {}, 0, 0.0, false);
}
void SeedRecordBuilder::nested()
{
    dispatch(Kind::Nested, {}, 0, 0.0, false);
}

void SeedRecordBuilder::real(double value, std::string_view lexeme)
{
    dispatch(Kind::Real, lexeme, 0, value, false);
}

void SeedRecordBuilder::decimal(std::string_view lexeme)
{
    // Stamps are converted from the lexeme exactly; only other fields need
    // the double, so parse it only for them.
    double value = 0.0;
    if (!isStampField(m_field)) {
        const auto parsed = std::from_chars(lexeme.data(), lexeme.data() + lexeme.size(), value);
        if (parsed.ec == std::errc::result_out_of_range)
            value = std::numeric_limits<double>::infinity();
    }
    dispatch(Kind::Real, lexeme, 0, value, false);
}

void SeedRecordBuilder::fixedPoint(std::string_view lexeme, const JsonLexing::FixedPoint &number)
{
    constexpr int kMsExponent = 6; // ns per ms = 10^6
    qint64 ns = 0;
    if (isStampField(m_field)
        && DecimalTime::scaleToNanoseconds(qint64(number.digits), number.fractionDigits, number.negative, kMsExponent,
                                           &ns)) {
        const auto index = size_t(static_cast<int>(m_field) - static_cast<int>(SeedField::FirstStamp));
        if (acceptOnce(m_record.hasStamp[index])) {
            m_record.stamps[index] = ns;
            m_record.hasStamp[index] = true;
        }
        return;
    }
    decimal(lexeme); // beyond 64 bits of ns (the general path says why), or not a stamp
}

void SeedRecordBuilder::dispatch(Kind kind, std::string_view text, qint64 integer, double real, bool flag)
{
    switch (m_field) {
    case SeedField::RequestId:
        readRequestId(kind, text, integer);
        return;
    case SeedField::PromptTokens:
    case SeedField::OutputTokens:
        readTokens(m_field == SeedField::PromptTokens ? 0 : 1, kind, integer, real, text);
        return;
    case SeedField::NotAField:
        if (m_tokenField != SeedTokenTimes::Field::None) {
            if (acceptOnce(m_record.tokenTimes.present(m_tokenField)))
                m_record.fail(fromStd(m_key),
                              QStringLiteral("must be an array of %1, got %2")
                                  .arg(m_tokenField == SeedTokenTimes::Field::ClientCounts
                                           ? QStringLiteral("token counts")
                                           : QStringLiteral("times in milliseconds"),
                                       kindName(kind)));
            return;
        }
        readAttribute(kind, text, real, flag, text);
        return;
    default:
        readStamp(static_cast<int>(m_field) - static_cast<int>(SeedField::FirstStamp), kind, integer, real, text);
        return;
    }
}

bool SeedRecordBuilder::acceptOnce(bool alreadySeen)
{
    if (alreadySeen)
        m_record.fail(fromStd(m_key), QStringLiteral("appears twice in the record"));
    return !alreadySeen;
}

void SeedRecordBuilder::readRequestId(Kind kind, std::string_view text, qint64 integer)
{
    if (!acceptOnce(m_record.hasRequestId))
        return;
    if (kind == Kind::Text) {
        if (text.empty()) {
            m_record.fail(QStringLiteral("request_id"), QStringLiteral("is empty"));
            return;
        }
        m_record.requestId.assign(text);
    } else if (kind == Kind::Integer) {
        m_record.requestId = std::to_string(integer);
    } else {
        m_record.fail(QStringLiteral("request_id"), QStringLiteral("must be a string, got %1").arg(kindName(kind)));
        return;
    }
    m_record.hasRequestId = true;
}

void SeedRecordBuilder::readTokens(int which, Kind kind, qint64 integer, double real, std::string_view lexeme)
{
    if (!acceptOnce(m_record.hasToken[size_t(which)]))
        return;
    // TokenCount's rule, the same in every loader: whole, 1 to 2^31 - 1.
    qint64 count = 0;
    QString reason;
    bool ok = false;
    switch (kind) {
    case Kind::Integer:
        count = integer;
        ok = TokenCount::check(count, 1, &reason);
        break;
    case Kind::Real:
        ok = TokenCount::checkReal(real, lexeme, 1, &count, &reason);
        break;
    case Kind::HugeInteger:
        reason = QStringLiteral("%1 tokens is beyond any real request").arg(real, 0, 'g', 17);
        break;
    default:
        reason = QStringLiteral("must be a whole number of tokens, got %1").arg(kindName(kind));
        break;
    }
    if (!ok) {
        m_record.fail(fromStd(m_key), reason);
        return;
    }
    m_record.tokens[size_t(which)] = count;
    m_record.hasToken[size_t(which)] = true;
}

void SeedRecordBuilder::readStamp(int index, Kind kind, qint64 integer, double real, std::string_view lexeme)
{
    const auto field = [this] { return fromStd(m_key); };
    if (!acceptOnce(m_record.hasStamp[size_t(index)]))
        return;
    qint64 ns = 0;
    switch (kind) {
    case Kind::Integer:
        if (integer > std::numeric_limits<qint64>::max() / kNsPerMs
            || integer < std::numeric_limits<qint64>::min() / kNsPerMs) {
            m_record.fail(field(), QStringLiteral("%1 ms is out of range").arg(integer));
            return;
        }
        ns = integer * kNsPerMs;
        break;
    case Kind::Real:
        if (!std::isfinite(real)) {
            m_record.fail(field(), QStringLiteral("non-finite number %1").arg(fromStd(lexeme)));
            return;
        }
        if (DecimalTime::toNanoseconds(lexeme, kNsPerMs, &ns) != DecimalTime::Status::Ok) {
            double value = 0.0;
            const auto parsed = std::from_chars(lexeme.data(), lexeme.data() + lexeme.size(), value);
            m_record.fail(
                field(),
                parsed.ec == std::errc::result_out_of_range
                    ? QStringLiteral("non-finite number %1 (beyond the range of a double)").arg(fromStd(lexeme))
                    : QStringLiteral("%1 ms is out of range").arg(fromStd(lexeme)));
            return;
        }
        break;
    case Kind::HugeInteger:
        m_record.fail(field(), QStringLiteral("%1 ms is out of range").arg(real, 0, 'g', 17));
        return;
    default:
        m_record.fail(field(), QStringLiteral("must be a number of milliseconds, got %1").arg(kindName(kind)));
        return;
    }
    m_record.stamps[size_t(index)] = ns;
    m_record.hasStamp[size_t(index)] = true;
}

void SeedRecordBuilder::readAttribute(Kind kind, std::string_view text, double number, bool flag,
                                      std::string_view lexeme)
{
    if (kind == Kind::Nested) {
        m_record.nonScalarFields.emplace_back(m_key);
        return;
    }
    const bool numeric = kind == Kind::Integer || kind == Kind::HugeInteger || kind == Kind::Real;
    if (numeric && !std::isfinite(number)) {
        m_record.fail(fromStd(m_key), QStringLiteral("non-finite number %1").arg(fromStd(lexeme)));
        return;
    }
    if (!m_kept)
        return; // judged, not stored: the command does not read this attribute
    auto &attribute = m_record.nextAttribute();
    attribute.key = m_key;
    switch (kind) {
    case Kind::Text:
        attribute.type = SeedRecord::Attribute::Type::Text;
        attribute.text.assign(text);
        return;
    case Kind::Boolean:
        attribute.type = SeedRecord::Attribute::Type::Bool;
        attribute.boolean = flag;
        return;
    case Kind::Null:
        attribute.type = SeedRecord::Attribute::Type::Null;
        return;
    default:
        attribute.type = SeedRecord::Attribute::Type::Number;
        attribute.number = number;
        return;
    }
}
