#include "SpanKey.h"

#include "store/TraceStore.h"

#include <array>
#include <unordered_map>

QString spanKeyKindKey(SpanKeyKind kind)
{
    switch (kind) {
    case SpanKeyKind::Kind:
        return QStringLiteral("kind");
    case SpanKeyKind::Service:
        return QStringLiteral("service");
    case SpanKeyKind::Operation:
        return QStringLiteral("operation");
    case SpanKeyKind::Name:
        return QStringLiteral("name");
    }
    return {};
}

bool spanKeyKindFromKey(const QString &key, SpanKeyKind *kind)
{
    for (const SpanKeyKind candidate :
         {SpanKeyKind::Kind, SpanKeyKind::Service, SpanKeyKind::Operation, SpanKeyKind::Name}) {
        if (spanKeyKindKey(candidate) == key) {
            *kind = candidate;
            return true;
        }
    }
    return false;
}

namespace {

bool isAlnum(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z');
}

bool isDigit(QChar c)
{
    return c.unicode() >= u'0' && c.unicode() <= u'9';
}

bool isHex(QChar c)
{
    const char16_t u = c.unicode();
    return isDigit(c) || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F');
}

// Length of the alphanumeric token starting at `at`.
qsizetype tokenLength(QStringView text, qsizetype at)
{
    qsizetype end = at;
    while (end < text.size() && isAlnum(text[end]))
        ++end;
    return end - at;
}

bool allOf(QStringView token, bool (*test)(QChar))
{
    for (const QChar c : token) {
        if (!test(c))
            return false;
    }
    return !token.isEmpty();
}

// A UUID (8-4-4-4-12 hex digits) starting at `at`, or 0.
qsizetype uuidLength(QStringView text, qsizetype at)
{
    static constexpr qsizetype parts[] = {8, 4, 4, 4, 12};
    qsizetype pos = at;
    for (size_t i = 0; i < 5; ++i) {
        if (i > 0) {
            if (pos >= text.size() || text[pos] != QLatin1Char('-'))
                return 0;
            ++pos;
        }
        const qsizetype length = tokenLength(text, pos);
        if (length != parts[i] || !allOf(text.mid(pos, length), isHex))
            return 0;
        pos += length;
    }
    return pos - at;
}

} // namespace

QString normaliseSpanName(QStringView name)
{
    // One pass over alphanumeric tokens (a token is a maximal run of ASCII
    // letters and digits, so "call_17" holds the token "17" and "llama3" none).
    QString out;
    out.reserve(name.size());
    qsizetype at = 0;
    while (at < name.size()) {
        if (!isAlnum(name[at])) {
            out += name[at++];
            continue;
        }
        if (const qsizetype uuid = uuidLength(name, at); uuid > 0) {
            out += QStringLiteral("{id}");
            at += uuid;
            continue;
        }
        const qsizetype length = tokenLength(name, at);
        const QStringView token = name.mid(at, length);
        if (length >= 8 && allOf(token, isHex) && !allOf(token, [](QChar c) { return !isDigit(c); })) {
            out += QStringLiteral("{id}");
            at += length;
            continue;
        }
        if (!allOf(token, isDigit)) {
            out += token;
            at += length;
            continue;
        }
        // A number: digit tokens joined by single dots ("1.5", "10.0.3").
        qsizetype end = at + length;
        while (end + 1 < name.size() && name[end] == QLatin1Char('.') && isDigit(name[end + 1])) {
            const qsizetype next = tokenLength(name, end + 1);
            if (!allOf(name.mid(end + 1, next), isDigit))
                break;
            end += 1 + next;
        }
        // A version stays: one digit (or d.d) joined by '-' or '.' to a word.
        const qsizetype digits = end - at;
        const bool shortNumber = digits == 1 || (digits == 3 && name[at + 1] == QLatin1Char('.'));
        const bool joined = at >= 2 && (name[at - 1] == QLatin1Char('-') || name[at - 1] == QLatin1Char('.'))
            && isAlnum(name[at - 2]);
        if (shortNumber && joined)
            out += name.mid(at, digits);
        else
            out += QStringLiteral("{n}");
        at = end;
    }
    return out;
}

QString SpanKeys::text(quint32 key) const
{
    if (key == idleKey())
        return QStringLiteral("idle between root spans");
    return m_texts[size_t(baseOf(key))];
}

SpanKeys SpanKeys::build(const TraceStore &store, SpanKeyKind kind)
{
    SpanKeys keys;
    keys.m_kind = kind;
    const SpanTable &spans = store.spans;
    const auto rows = size_t(spans.rowCount());
    keys.m_keyOfSpan.resize(rows);
    std::vector<std::array<qint64, kSpanCategoryCount>> categoryCounts;
    const auto count = [&](quint32 key, SpanCategory category) {
        if (categoryCounts.size() <= key)
            categoryCounts.resize(size_t(key) + 1, std::array<qint64, kSpanCategoryCount>{});
        ++categoryCounts[key][size_t(category)];
    };
    if (kind == SpanKeyKind::Kind) {
        for (int category = 0; category < kSpanCategoryCount; ++category)
            keys.m_texts.push_back(spanCategoryLabel(SpanCategory(category)).toLower());
        for (size_t row = 0; row < rows; ++row) {
            keys.m_keyOfSpan[row] = quint32(spans.category(qsizetype(row)));
            count(keys.m_keyOfSpan[row], spans.category(qsizetype(row)));
        }
    } else {
        // Interned string code -> key, filled on first sight: the texts (and
        // for names the normalisation) are computed once per distinct string.
        constexpr quint32 kUnset = 0xffffffffu;
        std::vector<quint32> keyOfCode(size_t(spans.strings().size()), kUnset);
        std::unordered_map<QString, quint32> keyOfText;
        for (size_t row = 0; row < rows; ++row) {
            const auto r = qsizetype(row);
            const quint32 code = kind == SpanKeyKind::Service ? spans.serviceCode(r)
                : kind == SpanKeyKind::Operation              ? spans.operationCode(r)
                                                              : spans.nameCode(r);
            quint32 &key = keyOfCode[code];
            if (key == kUnset) {
                QString text = spans.text(code);
                if (kind == SpanKeyKind::Name)
                    text = normaliseSpanName(text);
                if (text.isEmpty())
                    text = QStringLiteral("(none)");
                const auto [it, inserted] = keyOfText.try_emplace(text, quint32(keys.m_texts.size()));
                if (inserted)
                    keys.m_texts.push_back(text);
                key = it->second;
            }
            keys.m_keyOfSpan[row] = key;
            count(key, spans.category(r));
        }
    }
    categoryCounts.resize(keys.m_texts.size(), std::array<qint64, kSpanCategoryCount>{});
    for (const auto &counts : categoryCounts) {
        int best = 0;
        for (int category = 1; category < kSpanCategoryCount; ++category) {
            if (counts[size_t(category)] > counts[size_t(best)])
                best = category;
        }
        keys.m_category.push_back(SpanCategory(best));
    }
    return keys;
}
