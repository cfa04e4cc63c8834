#include "JsonArrayElements.h"

#include "LoadControl.h"

#include <QFile>

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

} // namespace

bool forEachJsonArrayElement(const QString &path, LoadControl *control,
                             const std::function<bool(std::string_view, qint64, qint64)> &visit, QString *error,
                             qint64 *trailingLine)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return false;
    }
    const QByteArray bytes = file.readAll();
    std::string_view data(bytes.constData(), size_t(bytes.size()));
    if (data.starts_with("\xEF\xBB\xBF"))
        data.remove_prefix(3);
    size_t pos = 0;
    qint64 line = 1;
    const auto skipSpace = [&] {
        while (pos < data.size() && isSpace(data[pos])) {
            line += data[pos] == '\n' ? 1 : 0;
            ++pos;
        }
    };
    skipSpace();
    if (pos >= data.size() || data[pos] != '[') {
        *error = QStringLiteral("expected a JSON array of records");
        return false;
    }
    ++pos;
    qint64 index = 0;
    for (;;) {
        skipSpace();
        if (pos >= data.size())
            return true; // truncated after a comma: every complete record was handed over
        if (data[pos] == ']')
            break;
        // The element runs to the next comma or ']' at depth 0. A closer at
        // depth 0 other than that ']' belongs to no bracket of the element:
        // it is kept in the element (whose parse then fails) and the walk
        // moves on past it.
        const size_t begin = pos;
        const qint64 beginLine = line;
        int depth = 0;
        bool inString = false;
        for (; pos < data.size(); ++pos) {
            const char c = data[pos];
            if (c == '\n')
                ++line;
            if (inString) {
                if (c == '\\' && pos + 1 < data.size()) {
                    ++pos; // the escaped character
                    line += data[pos] == '\n' ? 1 : 0;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (depth > 0)
                    --depth;
                else if (c == ']')
                    break; // the array's own closing bracket
            } else if (c == ',' && depth == 0) {
                break;
            }
        }
        std::string_view element = data.substr(begin, pos - begin);
        while (!element.empty() && isSpace(element.back()))
            element.remove_suffix(1);
        if (control) {
            if (control->isCancelled())
                return true;
            control->addProcessed(qint64(pos - begin) + 1, 1);
        }
        // A truncated file ends inside an element: hand it over anyway, so
        // the loader reports it as a broken record and keeps the rest.
        if (!visit(element, beginLine, index++))
            return true;
        if (pos >= data.size())
            return true;
        if (data[pos] == ']')
            break;
        ++pos; // the comma
    }
    ++pos; // the closing bracket
    skipSpace();
    if (pos < data.size() && trailingLine)
        *trailingLine = line;
    return true;
}
