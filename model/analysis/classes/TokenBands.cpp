#include "TokenBands.h"

#include <algorithm>

TokenBands::TokenBands()
    : m_edges{512, 2048, 8192}
{ }

TokenBands::TokenBands(std::vector<qint32> edges)
    : m_edges(std::move(edges))
{ }

bool TokenBands::parse(const QString &text, TokenBands *bands, QString *error)
{
    std::vector<qint32> edges;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString item = part.trimmed().toLower();
        double scale = 1.0;
        if (item.endsWith(QLatin1Char('k'))) {
            scale = 1024.0;
            item.chop(1);
        }
        bool ok = false;
        const double value = item.toDouble(&ok) * scale;
        if (!ok || value < 1.0 || value > 1e9) {
            *error = QStringLiteral("band edge '%1' is not a positive token count").arg(part.trimmed());
            return false;
        }
        const auto edge = static_cast<qint32>(value);
        if (!edges.empty() && edge <= edges.back()) {
            *error = QStringLiteral("band edges must be strictly ascending (%1 after %2)").arg(edge).arg(edges.back());
            return false;
        }
        edges.push_back(edge);
    }
    if (edges.empty()) {
        *error = QStringLiteral("no band edges given");
        return false;
    }
    *bands = TokenBands(std::move(edges));
    return true;
}

int TokenBands::bandOf(qint32 tokens) const
{
    if (tokens <= 0)
        return -1;
    return static_cast<int>(std::upper_bound(m_edges.begin(), m_edges.end(), tokens) - m_edges.begin());
}

QStringList TokenBands::labels() const
{
    QStringList labels;
    for (size_t i = 0; i <= m_edges.size(); ++i) {
        if (i == 0)
            labels << QStringLiteral("<") + tokenCountLabel(m_edges.front());
        else if (i == m_edges.size())
            labels << QStringLiteral("\u2265") + tokenCountLabel(m_edges.back());
        else
            labels << tokenCountLabel(m_edges[i - 1]) + QStringLiteral("\u2013") + tokenCountLabel(m_edges[i]);
    }
    return labels;
}

QString TokenBands::tokenCountLabel(qint32 tokens)
{
    // Token budgets are usually powers of two; 1k = 1024 reads like the configs.
    if (tokens >= 1024 && tokens % 512 == 0)
        return QString::number(double(tokens) / 1024.0, 'g', 6) + QLatin1Char('k');
    if (tokens >= 1000 && tokens % 1000 == 0)
        return QString::number(tokens / 1000) + QLatin1Char('k');
    return QString::number(tokens);
}
