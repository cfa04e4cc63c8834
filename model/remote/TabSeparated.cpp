#include "TabSeparated.h"

#include <charconv>

namespace TabSeparated {

namespace {

// The byte an escape of ClickHouse's text formats stands for (TabSeparated
// fields, quoted strings in arrays), `c` being the byte after the backslash.
char unescaped(char c)
{
    switch (c) {
    case 't':
        return '\t';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case '0':
        return '\0';
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    default:
        return c; // \\ \' and any other escaped byte stand for themselves
    }
}

// [a,b,c]: numbers of type T, each read exactly.
template<typename T> bool numbersOf(std::string_view field, std::vector<T> *out)
{
    out->clear();
    if (field.size() < 2 || field.front() != '[' || field.back() != ']')
        return false;
    const char *at = field.data() + 1;
    const char *const end = field.data() + field.size() - 1;
    while (at < end) {
        T value = 0;
        const auto [next, error] = std::from_chars(at, end, value);
        if (error != std::errc() || (next < end && *next != ','))
            return false;
        out->push_back(value);
        at = next < end ? next + 1 : next;
    }
    return true;
}

} // namespace

void split(std::string_view row, std::vector<std::string_view> *fields)
{
    fields->clear();
    for (size_t begin = 0;;) {
        const size_t tab = row.find('\t', begin);
        fields->push_back(row.substr(begin, tab == std::string_view::npos ? std::string_view::npos : tab - begin));
        if (tab == std::string_view::npos)
            break;
        begin = tab + 1;
    }
}

void unescapeInto(std::string_view field, std::string *out)
{
    out->clear();
    size_t start = 0;
    for (size_t slash = field.find('\\'); slash != std::string_view::npos && slash + 1 < field.size();
         slash = field.find('\\', start)) {
        out->append(field.substr(start, slash - start));
        out->push_back(unescaped(field[slash + 1]));
        start = slash + 2;
    }
    out->append(field.substr(start));
}

bool integer(std::string_view field, qint64 *out)
{
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), *out);
    return error == std::errc() && end == field.data() + field.size() && !field.empty();
}

bool stringArray(std::string_view field, std::vector<std::string> *out)
{
    out->clear();
    if (field.size() < 2 || field.front() != '[' || field.back() != ']')
        return false;
    size_t i = 1;
    const size_t end = field.size() - 1;
    while (i < end) {
        if (field[i] != '\'')
            return false;
        std::string &element = out->emplace_back();
        for (++i;;) {
            const size_t plain = i;
            while (i < end && field[i] != '\\' && field[i] != '\'')
                ++i;
            element.append(field.substr(plain, i - plain));
            if (i >= end)
                return false;
            if (field[i] == '\'')
                break;
            if (i + 1 < end) {
                element.push_back(unescaped(field[i + 1]));
                i += 2;
            } else {
                element.push_back(field[i++]);
            }
        }
        ++i; // the closing quote
        if (i < end && field[i++] != ',')
            return false;
    }
    return true;
}

bool numberArray(std::string_view field, std::vector<double> *out)
{
    return numbersOf(field, out);
}

bool integerArray(std::string_view field, std::vector<qint64> *out)
{
    return numbersOf(field, out);
}

} // namespace TabSeparated
