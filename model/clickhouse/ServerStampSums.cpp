#include "ServerStampSums.h"

#include "ServerRequests.h"
#include "TracelaneSchema.h"

#include <algorithm>

ServerStampSums::ServerStampSums(Metric total, Boundary where)
{
    const auto [begin, end] = PhaseAttribution::window(total, where);
    m_begin = begin;
    m_end = end;
    m_inside = PhaseAttribution::phasesInside(total, where);
    const auto use = [&](Stamp stamp) {
        if (std::find(m_stamps.begin(), m_stamps.end(), stamp) == m_stamps.end())
            m_stamps.push_back(stamp);
    };
    use(begin);
    use(end);
    for (const Phase phase : m_inside) {
        use(phaseBegin(phase));
        use(phaseEnd(phase));
    }
    std::sort(m_stamps.begin(), m_stamps.end());
}

quint64 ServerStampSums::bit(Stamp stamp) const
{
    return quint64(1) << (std::find(m_stamps.begin(), m_stamps.end(), stamp) - m_stamps.begin());
}

QString ServerStampSums::maskSql() const
{
    QStringList terms;
    for (size_t i = 0; i < m_stamps.size(); ++i) {
        terms << QStringLiteral("(%1 = %2) * %3")
                     .arg(TracelaneSchema::stampColumn(m_stamps[i]), TracelaneSchema::absentSql())
                     .arg(quint64(1) << i);
    }
    return QStringLiteral("toUInt8(%1)").arg(terms.join(QStringLiteral(" + ")));
}

QStringList ServerStampSums::sumsSql() const
{
    QStringList sums = {QStringLiteral("count()")};
    for (const Stamp stamp : m_stamps)
        sums << ServerRequests::wrappedSumSql(TracelaneSchema::stampColumn(stamp));
    return sums;
}

bool ServerStampSums::add(quint64 mask, const QStringList &fields, qsizetype first, GroupPhaseSums *into,
                          qint64 *rows) const
{
    if (fields.size() < first + width())
        return false;
    const qint64 count = fields[first].toLongLong();
    if (count < 0 || count > kMaxGroupRows)
        return false;
    *rows += count;
    if (!into)
        return true;
    const auto observed = [&](Stamp from, Stamp to) { return (mask & (bit(from) | bit(to))) == 0; };
    if (!observed(m_begin, m_end))
        return true;
    const auto sumOf = [&](Stamp stamp) {
        const auto at = std::find(m_stamps.begin(), m_stamps.end(), stamp) - m_stamps.begin();
        return ServerRequests::wrappedSum(fields, first + 1 + 2 * at);
    };
    const GroupPhaseSums::Int128 total = sumOf(m_end) - sumOf(m_begin);
    GroupPhaseSums::Int128 covered = 0;
    into->n += count;
    into->total += total;
    for (const Phase phase : m_inside) {
        if (!observed(phaseBegin(phase), phaseEnd(phase)))
            continue;
        const GroupPhaseSums::Int128 ns = sumOf(phaseEnd(phase)) - sumOf(phaseBegin(phase));
        into->phases[size_t(phase)] += ns;
        into->observed[size_t(phase)] += count;
        covered += ns;
    }
    // Σ(total − covered) over the rows is Σ total − Σ covered, exactly.
    into->residual += total - covered;
    return true;
}
