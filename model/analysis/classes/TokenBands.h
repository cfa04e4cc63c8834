#pragma once

#include <QString>
#include <QStringList>

#include <vector>

// Bands of a token count (prompt or output length), given by ascending upper
// edges: edges {512, 2048, 8192} make the bands <512, 512–2k, 2k–8k, ≥8k.
// Band i holds counts in [edges[i-1], edges[i]). A count of 0 means the source
// did not say, and falls in no band.
class TokenBands
{
public:
    TokenBands(); // the defaults above
    explicit TokenBands(std::vector<qint32> edges);

    // Parses "512,2048,8192" (also accepts "512,2k,8k"); false on bad input
    // (not numbers, not strictly ascending, not positive).
    static bool parse(const QString &text, TokenBands *bands, QString *error);

    const std::vector<qint32> &edges() const { return m_edges; }
    int bandCount() const { return static_cast<int>(m_edges.size()) + 1; }

    // Band index of `tokens`, or -1 for an unknown (non-positive) count.
    int bandOf(qint32 tokens) const;

    // "<512", "512–2k", "2k–8k", "≥8k".
    QStringList labels() const;

    // 2048 -> "2k", 1536 -> "1.5k", 1000 -> "1k", 300 -> "300".
    static QString tokenCountLabel(qint32 tokens);

    bool operator==(const TokenBands &other) const = default;

private:
    std::vector<qint32> m_edges;
};
