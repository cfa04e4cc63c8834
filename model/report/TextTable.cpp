#include "TextTable.h"

#include <algorithm>

TextTable::TextTable(QStringList headers, std::vector<Align> alignment)
    : m_headers(std::move(headers))
    , m_alignment(std::move(alignment))
{
    m_alignment.resize(size_t(m_headers.size()), Align::Left);
}

void TextTable::addRow(QStringList cells)
{
    while (cells.size() < m_headers.size())
        cells << QString();
    m_rows.push_back(std::move(cells));
}

QString TextTable::render() const
{
    std::vector<qsizetype> widths(size_t(m_headers.size()), 0);
    const auto measure = [&](const QStringList &cells) {
        for (qsizetype i = 0; i < m_headers.size(); ++i)
            widths[size_t(i)] = std::max(widths[size_t(i)], cells[i].size());
    };
    measure(m_headers);
    for (const auto &row : m_rows)
        measure(row);
    const auto line = [&](const QStringList &cells) {
        QString text;
        for (qsizetype i = 0; i < m_headers.size(); ++i) {
            if (i > 0)
                text += QStringLiteral("  ");
            const bool right = m_alignment[size_t(i)] == Align::Right;
            text += right ? cells[i].rightJustified(widths[size_t(i)]) : cells[i].leftJustified(widths[size_t(i)]);
        }
        while (text.endsWith(QLatin1Char(' ')))
            text.chop(1);
        return text;
    };
    QStringList lines;
    lines << line(m_headers);
    for (const auto &row : m_rows)
        lines << line(row);
    return lines.join(QLatin1Char('\n'));
}
