#pragma once

#include "analysis/exceedance/PhaseAttribution.h"
#include "store/Stamp.h"

#include <QString>
#include <QStringList>

#include <span>
#include <vector>

// PhaseAttribution's sums (GroupPhaseSums) from a GROUP BY of the rows by
// which stamps of the total's window each lacks (the mask) and every stamp's
// sum in each group. Within a group a stamp is present in every row or in
// none, so a phase's ns sum is its end stamp's sum minus its begin stamp's,
// and which phases a group observes is read from its mask: no flag or
// difference per phase is computed per row. An absent stamp's sum (of the
// kNoTime sentinel) is never read.
class ServerStampSums
{
public:
    // `total` Ttft (at `where`) or E2e (at the client), as PhaseAttribution.
    ServerStampSums(Metric total, Boundary where);

    // A group of at most this many rows: ServerRequests::wrappedSum's limit.
    static constexpr qint64 kMaxGroupRows = (qint64(1) << 32) - 1;

    // The mask as SQL: a UInt8, bit i set when the i-th stamp is absent.
    QString maskSql() const;
    // count(), then each stamp's sum as ServerRequests::wrappedSumSql.
    QStringList sumsSql() const;
    int width() const { return 1 + 2 * int(m_stamps.size()); }

    // Adds a group (its mask, and sumsSql()'s fields from `first`) to
    // `into` (unless null) and its row count to `rows`. False when the row
    // is malformed.
    bool add(quint64 mask, const QStringList &fields, qsizetype first, GroupPhaseSums *into, qint64 *rows) const;

private:
    // The bit of `stamp` in the mask.
    quint64 bit(Stamp stamp) const;

    std::vector<Stamp> m_stamps; // in the mask's bit order
    Stamp m_begin = Stamp::ClientSend;
    Stamp m_end = Stamp::FirstTokenClient;
    std::span<const Phase> m_inside;
};
