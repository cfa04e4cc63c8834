#include "LosslessJson.h"

#include <vector>

namespace {

using json = nlohmann::json;

bool isIntegerLexeme(const std::string &lexeme)
{
    if (lexeme.empty())
        return false;
    for (size_t i = 0; i < lexeme.size(); ++i) {
        const char c = lexeme[i];
        if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-'))
            return false;
    }
    return true;
}

// A DOM builder on nlohmann's SAX events, iterative (an explicit stack).
class LosslessDomBuilder final : public nlohmann::json_sax<json>
{
public:
    explicit LosslessDomBuilder(json &root) : m_root(root) {}

    bool null() override { return add(nullptr); }
    bool boolean(bool value) override { return add(value); }
    bool number_integer(number_integer_t value) override { return add(value); }
    bool number_unsigned(number_unsigned_t value) override { return add(value); }
    bool number_float(number_float_t value, const string_t &lexeme) override
    {
        return isIntegerLexeme(lexeme) ? add(lexeme) : add(value);
    }
    bool string(string_t &value) override { return add(std::move(value)); }
    bool binary(binary_t &) override { return add(nullptr); }
    bool start_object(std::size_t) override
    {
        m_stack.push_back(place(json::object()));
        return true;
    }
    bool end_object() override
    {
        m_stack.pop_back();
        return true;
    }
    bool start_array(std::size_t) override
    {
        m_stack.push_back(place(json::array()));
        return true;
    }
    bool end_array() override
    {
        m_stack.pop_back();
        return true;
    }
    bool key(string_t &value) override
    {
        m_member = &(*m_stack.back())[value];
        return true;
    }
    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &error) override
    {
        m_errorByte = position;
        m_error = QString::fromUtf8(error.what());
        return false;
    }

    std::size_t errorByte() const { return m_errorByte; }
    const QString &error() const { return m_error; }

private:
    template<typename Value>
    bool add(Value &&value)
    {
        place(json(std::forward<Value>(value)));
        return true;
    }

    json *place(json value)
    {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        json &parent = *m_stack.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        *m_member = std::move(value);
        return m_member;
    }

    json &m_root;
    std::vector<json *> m_stack;
    json *m_member = nullptr;
    std::size_t m_errorByte = 0;
    QString m_error;
};

} // namespace

namespace LosslessJson {

bool parse(std::string_view text, json *root, QString *error, std::size_t *errorByte)
{
    LosslessDomBuilder builder(*root);
    if (json::sax_parse(text, &builder))
        return true;
    *error = builder.error();
    *errorByte = builder.errorByte();
    return false;
}

} // namespace LosslessJson
