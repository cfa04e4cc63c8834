#include "SeedRecord.h"

#include "DecimalTime.h"

#include <QStringList>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace {

constexpr qint64 kNsPerMs = 1'000'000;

QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString typeName(nlohmann::json::value_t type)
{
    switch (type) {
    case nlohmann::json::value_t::null:
        return QStringLiteral("null");
    case nlohmann::json::value_t::boolean:
        return QStringLiteral("a boolean");
    case nlohmann::json::value_t::string:
        return QStringLiteral("a string");
    case nlohmann::json::value_t::object:
        return QStringLiteral("an object");
    case nlohmann::json::value_t::array:
        return QStringLiteral("an array");
    default:
        return QStringLiteral("a number");
    }
}

// SAX handler that fills a SeedRecord straight from the token stream: no DOM,
// no per-field allocation beyond the strings nlohmann hands over.
class SeedSaxHandler final : public nlohmann::json_sax<nlohmann::json>
{
public:
    explicit SeedSaxHandler(SeedRecord &record, std::string_view line)
        : m_record(record), m_line(line)
    {
    }

    bool null() override { return scalar(nlohmann::json::value_t::null, {}, 0.0); }
    bool boolean(bool value) override
    {
        m_bool = value;
        return scalar(nlohmann::json::value_t::boolean, {}, 0.0);
    }
    bool number_integer(number_integer_t value) override
    {
        m_integer = value;
        m_isInteger = true;
        return scalar(nlohmann::json::value_t::number_integer, {}, double(value));
    }
    bool number_unsigned(number_unsigned_t value) override
    {
        m_isInteger = value <= number_unsigned_t(std::numeric_limits<qint64>::max());
        m_integer = m_isInteger ? qint64(value) : 0;
        return scalar(nlohmann::json::value_t::number_unsigned, {}, double(value));
    }
    bool number_float(number_float_t value, const string_t &lexeme) override
    {
        m_isInteger = false;
        m_lexeme = lexeme;
        return scalar(nlohmann::json::value_t::number_float, lexeme, value);
    }
    bool string(string_t &value) override
    {
        return scalar(nlohmann::json::value_t::string, value, 0.0);
    }
    bool binary(binary_t &) override { return scalar(nlohmann::json::value_t::binary, {}, 0.0); }

    bool start_object(std::size_t) override { return enterContainer(); }
    bool end_object() override { return leaveContainer(); }
    bool start_array(std::size_t) override { return enterContainer(); }
    bool end_array() override { return leaveContainer(); }

    bool key(string_t &value) override
    {
        if (m_depth == 1) {
            m_key = value;
            m_field = seedFieldOf(m_key);
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string &lastToken,
                     const nlohmann::detail::exception &error) override
    {
        const QString column = QStringLiteral("column %1").arg(position);
        const QString field = m_depth >= 1 && !m_key.empty() ? fromStd(m_key) : QString();
        if (lastToken.starts_with("NaN") || lastToken.starts_with("Inf") || lastToken.starts_with("-Inf")
            || lastToken.starts_with("nan") || lastToken.starts_with("inf") || lastToken.starts_with("-inf")) {
            m_record.fail(field, QStringLiteral("non-finite number (%1) at %2; times and counts must be finite")
                                     .arg(fromStd(lastToken), column));
        } else if (position >= m_line.size() && lastToken.empty()) {
            m_record.fail(field, QStringLiteral("record ends early at %1 (truncated JSON)").arg(column));
        } else {
            // nlohmann's message is precise but long; keep its core.
            QString what = QString::fromUtf8(error.what());
            const auto at = what.indexOf(QLatin1String(": "), what.indexOf(QLatin1String("parse error")));
            if (at >= 0)
                what = what.mid(at + 2);
            m_record.fail(field, QStringLiteral("invalid JSON at %1: %2").arg(column, what));
        }
        return false;
    }

    bool sawTopLevelObject() const { return m_sawObject; }

private:
    bool enterContainer()
    {
        if (m_depth == 0) {
            m_sawObject = true;
        } else if (m_depth == 1) {
            if (m_field != SeedField::NotAField)
                m_record.fail(fromStd(m_key), QStringLiteral("must be a scalar, got a nested value"));
            else
                m_record.nonScalarFields.push_back(m_key);
        }
        ++m_depth;
        return true;
    }

    bool leaveContainer()
    {
        --m_depth;
        return true;
    }

    bool scalar(nlohmann::json::value_t type, std::string_view text, double number)
    {
        if (m_depth == 0) {
            m_record.fail({}, QStringLiteral("a record must be a JSON object, got %1").arg(typeName(type)));
            return false;
        }
        if (m_depth > 1)
            return true;   // inside a nested field we ignore
        switch (m_field) {
        case SeedField::RequestId:
            readRequestId(type, text);
            break;
        case SeedField::PromptTokens:
        case SeedField::OutputTokens:
            readTokens(m_field == SeedField::PromptTokens ? 0 : 1, type, number);
            break;
        case SeedField::NotAField:
            readAttribute(type, text, number);
            break;
        default:
            readStamp(static_cast<int>(m_field) - static_cast<int>(SeedField::FirstStamp), type, number);
            break;
        }
        return true;
    }

    bool checkDuplicate(bool seen)
    {
        if (seen)
            m_record.fail(fromStd(m_key), QStringLiteral("appears twice in the record"));
        return !seen;
    }

    void readRequestId(nlohmann::json::value_t type, std::string_view text)
    {
        if (!checkDuplicate(m_record.hasRequestId))
            return;
        if (type == nlohmann::json::value_t::string) {
            if (text.empty()) {
                m_record.fail(QStringLiteral("request_id"), QStringLiteral("is empty"));
                return;
            }
            m_record.requestId.assign(text);
        } else if (m_isIntegerToken(type)) {
            m_record.requestId = std::to_string(m_integer);
        } else {
            m_record.fail(QStringLiteral("request_id"),
                          QStringLiteral("must be a string, got %1").arg(typeName(type)));
            return;
        }
        m_record.hasRequestId = true;
    }

    bool m_isIntegerToken(nlohmann::json::value_t type) const
    {
        return (type == nlohmann::json::value_t::number_integer || type == nlohmann::json::value_t::number_unsigned)
            && m_isInteger;
    }

    void readTokens(int which, nlohmann::json::value_t type, double number)
    {
        const QString field = fromStd(m_key);
        if (!checkDuplicate(m_record.hasToken[size_t(which)]))
            return;
        qint64 count = 0;
        if (m_isIntegerToken(type)) {
            count = m_integer;
        } else if (type == nlohmann::json::value_t::number_float) {
            if (!std::isfinite(number)) {
                m_record.fail(field, QStringLiteral("non-finite number %1").arg(fromStd(m_lexeme)));
                return;
            }
            if (number != std::floor(number)) {
                m_record.fail(field, QStringLiteral("must be a whole number of tokens, got %1").arg(fromStd(m_lexeme)));
                return;
            }
            count = std::abs(number) < 9.0e18 ? qint64(number) : std::numeric_limits<qint64>::max();
        } else if (type == nlohmann::json::value_t::number_unsigned) {
            count = std::numeric_limits<qint64>::max();
        } else {
            m_record.fail(field, QStringLiteral("must be a whole number of tokens, got %1").arg(typeName(type)));
            return;
        }
        if (count > std::numeric_limits<qint32>::max()) {
            m_record.fail(field, QStringLiteral("%1 tokens is beyond any real request").arg(count));
            return;
        }
        m_record.tokens[size_t(which)] = count;
        m_record.hasToken[size_t(which)] = true;
    }

    void readStamp(int index, nlohmann::json::value_t type, double number)
    {
        const QString field = fromStd(m_key);
        if (!checkDuplicate(m_record.hasStamp[size_t(index)]))
            return;
        qint64 ns = 0;
        if (m_isIntegerToken(type)) {
            if (m_integer > std::numeric_limits<qint64>::max() / kNsPerMs
                || m_integer < std::numeric_limits<qint64>::min() / kNsPerMs) {
                m_record.fail(field, QStringLiteral("%1 ms is out of range").arg(m_integer));
                return;
            }
            ns = m_integer * kNsPerMs;
        } else if (type == nlohmann::json::value_t::number_float
                   || type == nlohmann::json::value_t::number_unsigned) {
            if (!std::isfinite(number)) {
                m_record.fail(field, QStringLiteral("non-finite number %1").arg(fromStd(m_lexeme)));
                return;
            }
            const auto lexeme = type == nlohmann::json::value_t::number_float ? m_lexeme : std::string();
            const auto status = lexeme.empty() ? DecimalTime::Status::OutOfRange
                                               : DecimalTime::toNanoseconds(lexeme, kNsPerMs, &ns);
            if (status != DecimalTime::Status::Ok) {
                m_record.fail(field, QStringLiteral("%1 ms is out of range").arg(number, 0, 'g', 17));
                return;
            }
        } else {
            m_record.fail(field, QStringLiteral("must be a number of milliseconds, got %1").arg(typeName(type)));
            return;
        }
        m_record.stamps[size_t(index)] = ns;
        m_record.hasStamp[size_t(index)] = true;
    }

    void readAttribute(nlohmann::json::value_t type, std::string_view text, double number)
    {
        auto &attribute = m_record.nextAttribute();
        attribute.key = m_key;
        switch (type) {
        case nlohmann::json::value_t::string:
            attribute.type = SeedRecord::Attribute::Type::Text;
            attribute.text.assign(text);
            break;
        case nlohmann::json::value_t::boolean:
            attribute.type = SeedRecord::Attribute::Type::Bool;
            attribute.boolean = m_bool;
            break;
        case nlohmann::json::value_t::null:
            attribute.type = SeedRecord::Attribute::Type::Null;
            break;
        default:
            if (!std::isfinite(number)) {
                m_record.fail(fromStd(m_key), QStringLiteral("non-finite number %1").arg(fromStd(m_lexeme)));
                return;
            }
            attribute.type = SeedRecord::Attribute::Type::Number;
            attribute.number = number;
            break;
        }
    }

    SeedRecord &m_record;
    std::string_view m_line;
    int m_depth = 0;
    bool m_sawObject = false;
    std::string m_key;
    SeedField m_field = SeedField::NotAField;
    qint64 m_integer = 0;
    bool m_isInteger = false;
    bool m_bool = false;
    std::string m_lexeme;
};

void validate(SeedRecord &record)
{
    QStringList missing;
    if (!record.hasRequestId)
        missing << seedFieldName(SeedField::RequestId);
    if (!record.hasToken[0])
        missing << seedFieldName(SeedField::PromptTokens);
    if (!record.hasToken[1])
        missing << seedFieldName(SeedField::OutputTokens);
    for (int i = 0; i < kStampCount; ++i) {
        if (!record.hasStamp[size_t(i)])
            missing << QString::fromLatin1(stampFieldName(static_cast<Stamp>(i)));
    }
    if (!missing.isEmpty()) {
        record.fail(missing.first(), QStringLiteral("missing field%1: %2")
                                         .arg(missing.size() > 1 ? QStringLiteral("s") : QString(),
                                              missing.join(QStringLiteral(", "))));
        return;
    }
    for (int which = 0; which < 2; ++which) {
        if (record.tokens[size_t(which)] < 1) {
            const auto field = which == 0 ? SeedField::PromptTokens : SeedField::OutputTokens;
            record.fail(seedFieldName(field), QStringLiteral("token counts must be positive, got %1")
                                                  .arg(record.tokens[size_t(which)]));
            return;
        }
    }
    for (int i = 1; i < kStampCount; ++i) {
        const qint64 before = record.stamps[size_t(i - 1)];
        const qint64 after = record.stamps[size_t(i)];
        if (after < before) {
            const auto afterName = QString::fromLatin1(stampFieldName(static_cast<Stamp>(i)));
            const auto beforeName = QString::fromLatin1(stampFieldName(static_cast<Stamp>(i - 1)));
            record.fail(afterName,
                        QStringLiteral("timestamps are not monotonic: %1 (%2 ms) is before %3 (%4 ms); "
                                       "clocks of different processes must be aligned before they are compared")
                            .arg(afterName, QString::number(double(after) / 1e6, 'f', 3), beforeName,
                                 QString::number(double(before) / 1e6, 'f', 3)));
            return;
        }
    }
}

} // namespace

SeedField seedFieldOf(std::string_view key)
{
    // Dispatch on length first: all contract keys differ in length or in a
    // few leading bytes, so this is a handful of compares per key.
    static constexpr std::array<std::string_view, 11> names = {
        "request_id",        "prompt_tokens",         "output_tokens",
        "client_send_ms",    "gateway_arrival_ms",    "queue_enter_ms",
        "prefill_start_ms",  "prefill_end_ms",        "first_token_server_ms",
        "first_token_client_ms", "last_token_client_ms",
    };
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i].size() == key.size() && names[i] == key)
            return static_cast<SeedField>(i);
    }
    return SeedField::NotAField;
}

QString seedFieldName(SeedField field)
{
    switch (field) {
    case SeedField::RequestId:
        return QStringLiteral("request_id");
    case SeedField::PromptTokens:
        return QStringLiteral("prompt_tokens");
    case SeedField::OutputTokens:
        return QStringLiteral("output_tokens");
    case SeedField::NotAField:
        return {};
    default:
        return QString::fromLatin1(
            stampFieldName(static_cast<Stamp>(static_cast<int>(field) - static_cast<int>(SeedField::FirstStamp))));
    }
}

bool parseSeedRecord(std::string_view line, SeedRecord &record)
{
    record.clear();
    SeedSaxHandler handler(record, line);
    const bool parsed = nlohmann::json::sax_parse(line.begin(), line.end(), &handler);
    if (!parsed || record.hasError()) {
        if (!record.hasError())
            record.fail({}, QStringLiteral("invalid JSON"));
        return false;
    }
    if (!handler.sawTopLevelObject()) {
        record.fail({}, QStringLiteral("a record must be a JSON object"));
        return false;
    }
    validate(record);
    return !record.hasError();
}
