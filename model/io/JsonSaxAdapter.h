#pragma once

#include <QString>

#include <nlohmann/json.hpp>

#include <charconv>
#include <string>
#include <string_view>

// Feeds nlohmann's SAX events to a JsonEventScanner-style handler, so the
// streaming parser (whole documents, and JSON Lines records the fast scanner
// refused) drives the same state machine. Records where and why parsing
// failed, in words a user can act on.
template<typename Handler> class JsonSaxAdapter final : public nlohmann::json_sax<nlohmann::json>
{
public:
    explicit JsonSaxAdapter(Handler &handler)
        : m_handler(handler)
    { }

    bool null() override { return m_handler.null(); }
    bool boolean(bool value) override { return m_handler.boolean(value); }
    bool number_integer(number_integer_t value) override { return integer(value); }
    bool number_unsigned(number_unsigned_t value) override { return integer(value); }
    bool number_float(number_float_t, const string_t &lexeme) override
    {
        return m_handler.number(std::string_view(lexeme), false);
    }
    bool string(string_t &value) override { return m_handler.string(std::string_view(value)); }
    bool binary(binary_t &) override { return m_handler.null(); }
    bool start_object(std::size_t) override { return m_handler.startObject(); }
    bool end_object() override { return m_handler.endObject(); }
    bool start_array(std::size_t) override { return m_handler.startArray(); }
    bool end_array() override { return m_handler.endArray(); }
    bool key(string_t &value) override { return m_handler.key(std::string_view(value)); }

    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &error) override
    {
        m_failed = true;
        m_position = position;
        // nlohmann's message is precise but long; keep what follows "parse error ...: ".
        QString what = QString::fromUtf8(error.what());
        const auto at = what.indexOf(QLatin1String(": "), what.indexOf(QLatin1String("parse error")));
        if (at >= 0)
            what = what.mid(at + 2);
        m_message = what;
        return false;
    }

    bool failed() const { return m_failed; }
    // 1-based byte position nlohmann stopped at.
    std::size_t position() const { return m_position; }
    const QString &message() const { return m_message; }

private:
    template<typename Integer> bool integer(Integer value)
    {
        char buffer[24];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
        return m_handler.number(std::string_view(buffer, size_t(result.ptr - buffer)), true);
    }

    Handler &m_handler;
    bool m_failed = false;
    std::size_t m_position = 0;
    QString m_message;
};
