#include "Markup.h"

namespace Markup {

QString escapeXml(const QString &text)
{
    QString out;
    out.reserve(text.size() + text.size() / 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        const char16_t u = c.unicode();
        switch (u) {
        case u'&':
            out += QStringLiteral("&amp;");
            continue;
        case u'<':
            out += QStringLiteral("&lt;");
            continue;
        case u'>':
            out += QStringLiteral("&gt;");
            continue;
        case u'"':
            out += QStringLiteral("&quot;");
            continue;
        case u'\'':
            out += QStringLiteral("&#39;");
            continue;
        default:
            break;
        }
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            out += c;
            out += text[++i];
            continue;
        }
        const bool control = u < 0x20 && u != u'\t' && u != u'\n' && u != u'\r';
        if (control || c.isSurrogate() || u == 0xFFFE || u == 0xFFFF)
            out += QChar(0xFFFD);
        else
            out += c;
    }
    return out;
}

static QString backslashed(const QString &text)
{
    QString marked;
    marked.reserve(text.size() + 8);
    for (const QChar c : text) {
        switch (c.unicode()) {
        case u'\\':
        case u'`':
        case u'*':
        case u'_':
        case u'[':
        case u']':
        case u'|':
        case u'~':
            marked += QLatin1Char('\\');
            marked += c;
            break;
        case u'\n':
        case u'\r':
            marked += QLatin1Char(' ');
            break;
        default:
            marked += c;
        }
    }
    return marked;
}

QString escapeMarkdownInline(const QString &text)
{
    return escapeXml(backslashed(text));
}

QString escapeMarkdown(const QString &text)
{
    QString marked = backslashed(text);
    // What only means something at the start of a line: a heading, a list
    // item ("- ", "+ ", "1. ", "1) "), a quote (escaped below as &gt;).
    qsizetype first = 0;
    while (first < marked.size() && marked[first] == QLatin1Char(' '))
        ++first;
    if (first < marked.size()) {
        const QChar lead = marked[first];
        if (lead == QLatin1Char('#') || lead == QLatin1Char('-') || lead == QLatin1Char('+')) {
            marked.insert(first, QLatin1Char('\\'));
        } else if (lead.isDigit()) {
            qsizetype end = first;
            while (end < marked.size() && marked[end].isDigit())
                ++end;
            if (end < marked.size() && (marked[end] == QLatin1Char('.') || marked[end] == QLatin1Char(')')))
                marked.insert(end, QLatin1Char('\\'));
        }
    }
    // HTML last, so the entities it writes are never backslashed.
    return escapeXml(marked);
}

} // namespace Markup
