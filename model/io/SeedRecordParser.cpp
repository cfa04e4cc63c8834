#include "SeedRecord.h"

#include "FlatJsonScanner.h"
#include "SeedRecordBuilder.h"
#include "TimeLimits.h"
#include "store/Utf8.h"

#include <QStringList>

#include <nlohmann/json.hpp>

#include <array>
#include <limits>

using Utf8::fromStd;

namespace {

// Adapts nlohmann's SAX events to the builder: only values at depth 1 (the
// record's own fields) reach it; anything nested is reported once as nested.
class SeedSaxHandler final : public nlohmann::json_sax<nlohmann::json>
{
public:
    SeedSaxHandler(SeedRecord &record, SeedRecordBuilder &builder, std::string_view line)
        : m_record(record)
        , m_builder(builder)
        , m_line(line)
    { }

    bool null() override
    {
        return scalar([&] { m_builder.null(); });
    }
    bool boolean(bool value) override
    {
        return scalar([&] { m_builder.boolean(value); });
    }
    bool number_integer(number_integer_t value) override
    {
        if (inTokenArray())
            if (inTokenArray())
                setNumber(std::to_string(value), true);
        return scalar([&] { m_builder.integer(value); });
    }
    bool number_unsigned(number_unsigned_t value) override
    {
        if (inTokenArray())
            setNumber(std::to_string(value), true);
        return scalar([&] {
            if (value <= number_unsigned_t(std::numeric_limits<qint64>::max()))
                m_builder.integer(qint64(value));
            else
                m_builder.hugeInteger(double(value));
        });
    }
    bool number_float(number_float_t value, const string_t &lexeme) override
    {
        if (inTokenArray())
            setNumber(lexeme, false);
        return scalar([&] { m_builder.real(value, lexeme); });
    }
    bool string(string_t &value) override
    {
        return scalar([&] { m_builder.text(value); });
    }
    bool binary(binary_t &) override
    {
        return scalar([&] { m_builder.nested(); });
    }

    bool start_object(std::size_t) override { return enter(true); }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override { return enter(false); }
    bool end_array() override { return leave(); }

    bool key(string_t &value) override
    {
        if (m_depth == 1)
            m_builder.key(value);
        return true;
    }

    bool parse_error(std::size_t position, const std::string &lastToken,
                     const nlohmann::detail::exception &error) override
    {
        const QString column = QStringLiteral("column %1").arg(position);
        const QString field = m_depth >= 1 ? fromStd(m_builder.currentKey()) : QString();
        // nlohmann rejects NaN and Infinity as invalid literals; say what they are.
        const std::string_view token(lastToken);
        const auto wordStart = token.find_last_of(" :,[\t");
        const std::string_view word = wordStart == std::string_view::npos ? token : token.substr(wordStart + 1);
        if (!word.empty()
            && (std::string_view("NaN").starts_with(word) || std::string_view("Infinity").starts_with(word)
                || std::string_view("-Infinity").starts_with(word))) {
            m_record.fail(field,
                          QStringLiteral("non-finite number (NaN or Infinity) at %1; times and counts "
                                         "must be finite")
                              .arg(column));
            return false;
        }
        if (position >= m_line.size() && lastToken.empty()) {
            m_record.fail(field, QStringLiteral("record ends early at %1 (truncated JSON)").arg(column));
            return false;
        }
        // nlohmann's message is precise but long; keep its core.
        QString what = QString::fromUtf8(error.what());
        const auto at = what.indexOf(QLatin1String(": "), what.indexOf(QLatin1String("parse error")));
        if (at >= 0)
            what = what.mid(at + 2);
        if (position >= m_line.size())
            m_record.fail(field, QStringLiteral("record ends early at %1 (truncated JSON): %2").arg(column, what));
        else
            m_record.fail(field, QStringLiteral("invalid JSON at %1: %2").arg(column, what));
        return false;
    }

    bool sawObject() const { return m_sawObject; }

private:
    bool inTokenArray() const { return m_depth == 2 && m_tokenArray; }
    void setNumber(std::string lexeme, bool integral)
    {
        m_lexeme = std::move(lexeme);
        m_integral = integral;
        m_number = true;
    }

    template<typename Deliver> bool scalar(Deliver deliver)
    {
        if (m_depth == 0) {
            m_record.fail({}, QStringLiteral("a record must be a JSON object"));
            return false;
        }
        if (m_depth == 1)
            deliver();
        else if (inTokenArray()) {
            m_builder.arrayElement(m_lexeme, m_integral, m_number);
            m_number = false;
        }
        return true;
    }

    bool enter(bool object)
    {
        if (m_depth == 0) {
            if (!object) {
                m_record.fail({}, QStringLiteral("a record must be a JSON object, got an array"));
                return false;
            }
            m_sawObject = true;
        } else if (m_depth == 1) {
            m_tokenArray = !object && m_builder.beginArray(); // per-token times: elements follow
            if (!m_tokenArray)
                m_builder.nested();
        } else if (m_depth == 2 && m_tokenArray) {
            m_builder.arrayElement({}, false, false); // a token array holds numbers only
        }
        ++m_depth;
        return true;
    }

    bool leave()
    {
        if (--m_depth == 1)
            m_tokenArray = false;
        return true;
    }

    SeedRecord &m_record;
    SeedRecordBuilder &m_builder;
    std::string_view m_line;
    int m_depth = 0;
    bool m_sawObject = false;
    bool m_tokenArray = false;
    // The number being delivered, for a token array's element.
    std::string m_lexeme;
    bool m_integral = false;
    bool m_number = false;
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
        record.fail(missing.first(),
                    QStringLiteral("missing field%1: %2")
                        .arg(missing.size() > 1 ? QStringLiteral("s") : QString(), missing.join(QStringLiteral(", "))));
        return;
    }
    // Token counts were judged as they were read (TokenCount).
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
    qint64 duration = 0;
    const qint64 first = record.stamps.front();
    const qint64 last = record.stamps.back();
    if (__builtin_sub_overflow(last, first, &duration) || duration > TimeLimits::kMaxDurationNs) {
        record.fail(QString::fromLatin1(stampFieldName(Stamp::LastTokenClient)),
                    TimeLimits::tooLong(QStringLiteral("the request"),
                                        duration > 0 ? duration : std::numeric_limits<qint64>::max()));
    }
}

} // namespace

namespace {

constexpr std::array<std::string_view, 11> kSeedFieldNames = {
    "request_id",           "prompt_tokens",    "output_tokens",  "client_send_ms",        "gateway_arrival_ms",
    "queue_enter_ms",       "prefill_start_ms", "prefill_end_ms", "first_token_server_ms", "first_token_client_ms",
    "last_token_client_ms",
};

} // namespace

bool seedFieldMatches(SeedField field, std::string_view key)
{
    return field < SeedField::NotAField && kSeedFieldNames[size_t(field)] == key;
}

SeedField seedFieldOf(std::string_view key)
{
    for (size_t i = 0; i < kSeedFieldNames.size(); ++i) {
        if (kSeedFieldNames[i].size() == key.size() && kSeedFieldNames[i] == key)
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
    SeedRecordBuilder builder(record);
    if (FlatJsonScanner::scan(line, builder) != FlatJsonScanner::Result::Ok) {
        // Anything unusual goes through the full parser, which also explains
        // exactly what is wrong with invalid JSON.
        record.clear();
        SeedSaxHandler handler(record, builder, line);
        const bool parsed = nlohmann::json::sax_parse(line.begin(), line.end(), &handler);
        if (!parsed || record.hasError()) {
            if (!record.hasError())
                record.fail({}, QStringLiteral("invalid JSON"));
            return false;
        }
        if (!handler.sawObject()) {
            record.fail({}, QStringLiteral("a record must be a JSON object"));
            return false;
        }
    }
    if (record.hasError())
        return false;
    validate(record);
    if (!record.hasError())
        validateSeedTokenTimes(record);
    return !record.hasError();
}
