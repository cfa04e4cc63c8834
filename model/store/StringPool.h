#pragma once

#include <QHash>
#include <QString>

#include <vector>

// Interns repeated strings (class values, span names, kinds, services) so
// columns hold small integer codes. Code 0 is reserved for "absent".
class StringPool
{
public:
    StringPool() { m_strings.emplace_back(); }

    quint32 intern(const QString &text)
    {
        if (text.isEmpty())
            return 0;
        const auto it = m_codes.constFind(text);
        if (it != m_codes.cend())
            return it.value();
        const auto code = static_cast<quint32>(m_strings.size());
        m_strings.push_back(text);
        m_codes.insert(text, code);
        return code;
    }

    // Returns 0 when the text was never interned.
    quint32 find(const QString &text) const { return m_codes.value(text, 0); }

    const QString &text(quint32 code) const { return m_strings[code]; }
    qsizetype size() const { return static_cast<qsizetype>(m_strings.size()); }

private:
    std::vector<QString> m_strings;
    QHash<QString, quint32> m_codes;
};
