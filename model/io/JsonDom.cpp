#include "JsonDom.h"

#include <QRegularExpression>

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

class DomBuilder final : public nlohmann::json_sax<json>
{
public:
    DomBuilder(json &root, const JsonDom::Options &options)
        : m_root(root)
        , m_options(options)
    { }

    bool null() override { return add(nullptr); }
    bool boolean(bool value) override { return add(value); }
    bool number_integer(number_integer_t value) override { return add(value); }
    bool number_unsigned(number_unsigned_t value) override { return add(value); }
    bool number_float(number_float_t value, const string_t &lexeme) override
    {
        // nlohmann hands over integers beyond 64 bits as doubles.
        return m_options.lossless && isIntegerLexeme(lexeme) ? add(lexeme) : add(value);
    }
    bool string(string_t &value) override { return add(std::move(value)); }
    bool binary(binary_t &) override { return add(nullptr); }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_object() override { return close(true); }
    bool end_array() override { return close(false); }
    bool key(string_t &value) override
    {
        if (m_skipping == 0)
            m_member = &(*m_stack.back())[value];
        return true;
    }
    bool parse_error(std::size_t position, const std::string &, const nlohmann::detail::exception &error) override
    {
        m_outcome.errorByte = position;
        m_outcome.message = JsonDom::describe(error);
        const QString what = QString::fromUtf8(error.what());
        if (m_rootComplete && what.contains(QLatin1String("expected end of input")))
            m_outcome.status = JsonDom::Outcome::Status::TrailingData;
        else if (what.contains(QLatin1String("unexpected end of input")))
            m_outcome.status = JsonDom::Outcome::Status::Truncated;
        else
            m_outcome.status = JsonDom::Outcome::Status::SyntaxError;
        return false;
    }

    JsonDom::Outcome outcome() const { return m_outcome; }

private:
    template<typename Value> bool add(Value &&value)
    {
        if (m_skipping == 0)
            place(json(std::forward<Value>(value)));
        if (m_stack.empty())
            m_rootComplete = true;
        return true;
    }

    bool open(json container)
    {
        // Past the depth limit the container and everything in it is read
        // but not kept: it stays null where it would have been.
        if (m_skipping > 0 || int(m_stack.size()) >= m_options.maxDepth) {
            if (m_skipping++ == 0) {
                ++m_outcome.tooDeep;
                place(json());
            }
            return true;
        }
        m_stack.push_back(place(std::move(container)));
        return true;
    }

    bool close(bool object)
    {
        if (m_skipping > 0) {
            --m_skipping;
        } else {
            json *closed = m_stack.back();
            const int depth = int(m_stack.size()) - 1;
            m_stack.pop_back();
            if (object && m_options.objectEnd && !m_options.objectEnd(depth, *closed))
                drop(closed);
        }
        if (m_stack.empty())
            m_rootComplete = true;
        return true;
    }

    // Removes a value just closed from its parent (or clears the root).
    void drop(json *value)
    {
        if (m_stack.empty()) {
            *value = json();
            return;
        }
        json &parent = *m_stack.back();
        if (parent.is_array()) {
            parent.erase(parent.size() - 1);
            return;
        }
        for (auto it = parent.begin(); it != parent.end(); ++it) {
            if (&*it == value) {
                parent.erase(it);
                return;
            }
        }
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
    const JsonDom::Options &m_options;
    std::vector<json *> m_stack;
    json *m_member = nullptr;
    int m_skipping = 0; // > 0 inside a container past the depth limit
    bool m_rootComplete = false;
    JsonDom::Outcome m_outcome;
};

} // namespace

namespace JsonDom {

Outcome parse(std::string_view text, json *root, const Options &options)
{
    *root = json();
    DomBuilder builder(*root, options);
    json::sax_parse(text, &builder);
    return builder.outcome();
}

QString describe(const std::exception &error)
{
    static const QRegularExpression prefix(
        QStringLiteral(R"(^\[json\.exception\.[a-z_]+\.\d+\] (parse error( at line \d+, column \d+)?: )?)"));
    QString what = QString::fromUtf8(error.what());
    what.remove(prefix);
    return what;
}

} // namespace JsonDom
