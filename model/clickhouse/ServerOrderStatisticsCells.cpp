#include "ServerOrderStatistics.h"

#include "ClickHouseClient.h"
#include "ServerRequests.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

// ServerOrderStatistics' passes over the rows (run()) and the second of
// them: finding the cells of key space that hold the ranks asked for,
// splitting them until they are small, and fetching their values (the keys
// themselves when few).

namespace {

// The rank of the m ordered values that rank r of n stands for: r itself
// when no value is NaN, else as quantilesExact(level (r + 0.5) / n) over
// the m non-NaN values picks it.
qint64 orderedRank(qint64 rank, qint64 n, qint64 m)
{
    if (m == n)
        return rank;
    const double level = (double(rank) + 0.5) / double(n);
    return level < 1 ? qint64(level * double(m)) : m - 1;
}

} // namespace

namespace {

// A cell of key space: the keys whose top `bits` bits are `prefix`.
struct Cell
{
    int bits = 0;
    quint64 prefix = 0;
    bool operator<(const Cell &other) const { return std::tie(bits, prefix) < std::tie(other.bits, other.prefix); }
};

QString cellSql(const Cell &cell, const QString &suffix = {})
{
    return QStringLiteral("bitShiftRight(tl_key%1, %2)").arg(suffix).arg(64 - cell.bits);
}

QString joined(const std::set<quint64> &items)
{
    QStringList parts;
    for (const quint64 item : items)
        parts << QString::number(item);
    return parts.join(QStringLiteral(", "));
}

// PREWHERE and WHERE that keep only the rows of `cells` (per member of
// the group when one is given; member ~0 stands for every member).
std::pair<QString, QString> rowsOf(const std::set<std::pair<quint64, Cell>> &cells, bool grouped,
                                   const QString &suffix = {})
{
    std::map<int, std::set<quint64>> prefixes;
    std::map<int, QStringList> tuples;
    bool whole = !grouped;
    for (const auto &[member, cell] : cells) {
        prefixes[cell.bits].insert(cell.prefix);
        if (member == ~quint64(0))
            whole = true;
        else
            tuples[cell.bits] << QStringLiteral("(%1, %2)").arg(member).arg(cell.prefix);
    }
    QStringList prewhere;
    for (const auto &[bits, set] : prefixes)
        prewhere << QStringLiteral("%1 IN (%2)").arg(cellSql({bits, 0}, suffix), joined(set));
    QString where;
    if (!whole) {
        QStringList near;
        for (const auto &[bits, list] : tuples)
            near << QStringLiteral("(tl_group%1, %2) IN (%3)")
                        .arg(suffix, cellSql({bits, 0}, suffix), list.join(QStringLiteral(", ")));
        where = near.join(QStringLiteral(" OR "));
    }
    return {QStringLiteral("(%1)").arg(prewhere.join(QStringLiteral(" OR "))), where};
}

} // namespace

// Which cell holds wanted ranks of a column, and their ranks there.
struct ServerOrderStatistics::Fetch
{
    size_t column = 0;
    Cell cell;
    qint64 count = 0;                         // the cell's values
    std::map<qint64, std::vector<qint64>> at; // rank in the cell -> the column's ranks
};

bool ServerOrderStatistics::locateCells(const ClickHouseClient &client, const Family &family, const QString &with,
                                        const QString &fromWhere, std::vector<Fetch> *queried, QString *error)
{
    const bool grouped = !family.group.isEmpty();
    const auto memberOf = [&](const Column &column) { return column.group.isEmpty() ? ~quint64(0) : column.member; };
    std::vector<Fetch> fetches;
    const auto locate = [&](size_t column, const std::map<Cell, qint64> &counts, qint64 wanted, qint64 rank,
                            std::map<Cell, size_t> *fetchOf, std::vector<Fetch> *into) {
        qint64 below = 0;
        for (const auto &[cell, count] : counts) {
            if (wanted < below + count) {
                auto [found, added] = fetchOf->try_emplace(cell, into->size());
                if (added)
                    into->push_back({column, cell, count, {}});
                (*into)[found->second].at[wanted - below].push_back(rank);
                return;
            }
            below += count;
        }
    };
    for (const size_t i : family.columns) {
        auto &column = m_columns[i];
        const auto nan = column.buckets.find(0);
        const qint64 m = column.n - (nan == column.buckets.end() ? 0 : nan->second);
        std::map<Cell, qint64> counts;
        for (const auto &[bucket, count] : column.buckets) {
            if (bucket != 0)
                counts[{kBucketBits, bucket}] = count;
        }
        std::map<Cell, size_t> fetchOf;
        for (const qint64 rank : column.ranks) {
            if (m == 0)
                column.values[rank] = std::numeric_limits<double>::quiet_NaN();
            else
                locate(i, counts, orderedRank(rank, column.n, m), rank, &fetchOf, &fetches);
        }
    }

    // A cell with many values (a narrow peak, many ties) is split by the
    // next kRefineBits bits of the key until each is small or one value.
    for (;;) {
        std::set<std::pair<quint64, Cell>> large;
        for (const auto &fetch : fetches) {
            if (fetch.count > m_refineAbove && fetch.cell.bits < 64)
                large.insert({memberOf(m_columns[fetch.column]), fetch.cell});
        }
        if (large.empty())
            break;
        const int bits = std::min(64, large.begin()->second.bits + kRefineBits);
        std::set<std::pair<quint64, Cell>> refine;
        for (const auto &item : large) {
            if (item.second.bits == large.begin()->second.bits)
                refine.insert(item);
        }
        const auto [prewhere, where] = rowsOf(refine, grouped);
        std::vector<QStringList> rows;
        if (!client.select(
                QStringLiteral("%1 SELECT %2%3, count() %4 GROUP BY %2%3")
                    .arg(withSql(with, family.value, family.group), grouped ? QStringLiteral("tl_group, ") : QString(),
                         cellSql({bits, 0}),
                         ServerRequests::withPrewhere(
                             fromWhere, QStringLiteral("(%1) AND %2").arg(family.condition, prewhere), where)),
                &rows, error, grouped ? 3 : 2))
            return false;
        const int shift = bits - refine.begin()->second.bits;
        std::vector<Fetch> next;
        for (auto &fetch : fetches) {
            const Column &column = m_columns[fetch.column];
            if (!refine.contains({memberOf(column), fetch.cell})) {
                next.push_back(std::move(fetch));
                continue;
            }
            std::map<Cell, qint64> counts;
            qint64 total = 0;
            for (const auto &row : rows) {
                const quint64 fine = row[grouped ? 1 : 0].toULongLong();
                if ((fine >> shift) != fetch.cell.prefix
                    || (!column.group.isEmpty() && row[0].toULongLong() != column.member))
                    continue;
                counts[{bits, fine}] += row[grouped ? 2 : 1].toLongLong();
                total += row[grouped ? 2 : 1].toLongLong();
            }
            if (total != fetch.count) {
                *error = ServerRequests::rowsChanged(total, fetch.count);
                return false;
            }
            std::map<Cell, size_t> fetchOf;
            for (const auto &[rank, asked] : fetch.at) {
                for (const qint64 r : asked)
                    locate(fetch.column, counts, rank, r, &fetchOf, &next);
            }
        }
        fetches = std::move(next);
    }

    // A 64-bit cell is one value; the others are selected on the server.
    for (auto &fetch : fetches) {
        if (fetch.cell.bits < 64) {
            queried->push_back(std::move(fetch));
            continue;
        }
        for (const auto &[rank, asked] : fetch.at) {
            for (const qint64 r : asked)
                m_columns[fetch.column].values[r] = ServerOrderStatistics::valueOfKey(fetch.cell.prefix);
        }
    }
    return true;
}

bool ServerOrderStatistics::shipCells(const ClickHouseClient &client, const Family &family,
                                      const std::vector<Fetch> &fetches, const QString &with, const QString &fromWhere,
                                      QString *error)
{
    // Every value of the cells' buckets, per group member: one GROUP BY and
    // one aggregate. A bucket the overall column wants travels for every
    // member (rowsOf drops the group filter then).
    const bool grouped = !family.group.isEmpty();
    std::set<std::pair<quint64, Cell>> cells;
    for (const auto &fetch : fetches) {
        const auto &column = m_columns[fetch.column];
        cells.insert({column.group.isEmpty() ? ~quint64(0) : column.member, fetch.cell});
    }
    const auto [prewhere, where] = rowsOf(cells, grouped);
    constexpr quint64 kLowBits = (quint64(1) << (64 - kBucketBits)) - 1;
    std::vector<QStringList> rows;
    if (!client.select(
            // One arg() call: the definitions may hold attribute values
            // with a '%' in them, which a second call would fill.
            QStringLiteral("%1 SELECT %2tl_bucket, count(), groupArray(bitAnd(tl_key, %3)) %4 GROUP BY "
                           "%2tl_bucket")
                .arg(withSql(with, family.value, family.group), grouped ? QStringLiteral("tl_group, ") : QString(),
                     QString::number(kLowBits),
                     ServerRequests::withPrewhere(
                         fromWhere, QStringLiteral("(%1) AND %2").arg(family.condition, prewhere), where)),
            &rows, error, grouped ? 4 : 3))
        return false;
    Shipped shipped{family.value, family.condition, family.group, {}};
    for (const auto &row : rows) {
        const quint64 member = grouped ? row[0].toULongLong() : 0;
        const quint64 bucket = row[grouped ? 1 : 0].toULongLong();
        const qint64 count = row[grouped ? 2 : 1].toLongLong();
        auto &keys = shipped.keys[{bucket, member}];
        keys.reserve(size_t(count));
        quint64 low = 0;
        bool digits = false;
        for (const QChar c : row[grouped ? 3 : 2]) {
            if (c.isDigit()) {
                low = low * 10 + quint64(c.unicode() - u'0');
                digits = true;
            } else if (digits) {
                keys.push_back((bucket << (64 - kBucketBits)) | low);
                low = 0;
                digits = false;
            }
        }
        if (qint64(keys.size()) != count) {
            *error = QStringLiteral("ClickHouse answered a malformed row of order keys (%1 keys where %2 were counted)")
                         .arg(keys.size())
                         .arg(count);
            return false;
        }
        std::sort(keys.begin(), keys.end());
    }

    // Each cell's values from its member's keys, or every member's.
    for (const auto &fetch : fetches) {
        auto &column = m_columns[fetch.column];
        std::vector<quint64> merged;
        const std::vector<quint64> *keys = &merged;
        if (column.group.isEmpty()) {
            for (auto it = shipped.keys.lower_bound({fetch.cell.prefix, 0});
                 it != shipped.keys.end() && it->first.first == fetch.cell.prefix; ++it)
                merged.insert(merged.end(), it->second.begin(), it->second.end());
            std::sort(merged.begin(), merged.end());
        } else if (const auto found = shipped.keys.find({fetch.cell.prefix, column.member});
                   found != shipped.keys.end()) {
            keys = &found->second;
        }
        if (qint64(keys->size()) != fetch.count) {
            *error = ServerRequests::rowsChanged(qint64(keys->size()), fetch.count);
            return false;
        }
        for (const auto &[rank, asked] : fetch.at) {
            for (const qint64 r : asked)
                column.values[r] = ServerOrderStatistics::valueOfKey((*keys)[size_t(rank)]);
        }
    }
    m_shipped.push_back(std::move(shipped));
    return true;
}

bool ServerOrderStatistics::selectCells(const ClickHouseClient &client, const std::vector<Family> &families,
                                        const std::vector<std::vector<Fetch>> &queried, const QString &with,
                                        const QString &fromWhere, QString *error)
{
    // One query for every family's cells: each family's key and group under
    // its own names, each cell an aggregate of its own.
    QStringList definitions;
    if (!with.isEmpty())
        definitions << with;
    QStringList columns;
    QStringList prewheres;
    QStringList wheres;
    std::vector<const Fetch *> order;
    bool groupedCells = false;
    for (size_t f = 0; f < families.size(); ++f) {
        if (queried[f].empty())
            continue;
        const Family &family = families[f];
        const QString suffix = QStringLiteral("_%1").arg(f);
        definitions << keyDefinitions(family.value, family.group, suffix);
        std::set<std::pair<quint64, Cell>> cells;
        for (const auto &fetch : queried[f]) {
            const auto &column = m_columns[fetch.column];
            cells.insert({column.group.isEmpty() ? ~quint64(0) : column.member, fetch.cell});
            QString condition = QStringLiteral("(%1) AND %2 = %3")
                                    .arg(family.condition, cellSql(fetch.cell, suffix))
                                    .arg(fetch.cell.prefix);
            if (!column.group.isEmpty())
                condition += QStringLiteral(" AND tl_group%1 = %2").arg(suffix).arg(column.member);
            QStringList levels;
            for (const auto &[rank, asked] : fetch.at)
                levels << QString::number((double(rank) + 0.5) / double(fetch.count), 'g', 17);
            columns << QStringLiteral("countIf(%1)").arg(condition)
                    << QStringLiteral("arrayMap(x -> %1, quantilesExactIf(%2)(toFloat64(%3), %4))")
                           .arg(ServerRequests::float64BitsSql(QStringLiteral("x")), levels.join(QLatin1Char(',')),
                                family.value, condition);
            order.push_back(&fetch);
        }
        // Only the rows of those cells reach the aggregates, and only for
        // them is the group computed (PREWHERE on the cells).
        const auto [prewhere, where] = rowsOf(cells, !family.group.isEmpty(), suffix);
        prewheres << QStringLiteral("((%1) AND %2)").arg(family.condition, prewhere);
        // The groups' cells narrow the rows further (each aggregate's own
        // condition decides what it counts; this only spares work).
        groupedCells = groupedCells || !where.isEmpty();
        wheres << (where.isEmpty() ? prewheres.back() : QStringLiteral("(%1 AND (%2))").arg(prewheres.back(), where));
    }
    if (order.empty())
        return true;
    QStringList fields;
    if (!selectRow(
            client,
            QStringLiteral("WITH %1 SELECT %2 %3")
                .arg(definitions.join(QStringLiteral(", ")), columns.join(QStringLiteral(", ")),
                     ServerRequests::withPrewhere(fromWhere, prewheres.join(QStringLiteral(" OR ")),
                                                  groupedCells ? wheres.join(QStringLiteral(" OR ")) : QString())),
            int(columns.size()), &fields, error))
        return false;
    for (size_t k = 0; k < order.size(); ++k) {
        const auto &fetch = *order[k];
        auto &column = m_columns[fetch.column];
        if (fields[2 * qsizetype(k)].toLongLong() != fetch.count) {
            *error = ServerRequests::rowsChanged(fields[2 * qsizetype(k)].toLongLong(), fetch.count);
            return false;
        }
        QString text = fields[2 * qsizetype(k) + 1];
        text.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
        const QStringList bits = text.isEmpty() ? QStringList() : text.split(QLatin1Char(','));
        if (bits.size() != qsizetype(fetch.at.size())) {
            *error = QStringLiteral("ClickHouse answered a malformed order-statistics row");
            return false;
        }
        qsizetype i = 0;
        for (const auto &[rank, asked] : fetch.at) {
            const double value = ServerRequests::float64FromBits(bits[i++]);
            for (const qint64 r : asked)
                column.values[r] = value;
        }
    }
    return true;
}

bool ServerOrderStatistics::shippable(const std::vector<Fetch> &fetches) const
{
    // Whole buckets only (a refined cell's bucket holds too many values).
    // What travels: each (member, bucket) cell's keys; but once a column
    // without a group wants a bucket, rowsOf() keeps every member of every
    // listed bucket, so each bucket then counts with all of its values.
    if (fetches.empty() || m_shipAtMost <= 0)
        return false;
    const Column *whole = nullptr;
    std::map<std::pair<quint64, quint64>, qint64> sizes;
    for (const auto &fetch : fetches) {
        if (fetch.cell.bits != kBucketBits)
            return false;
        const auto &column = m_columns[fetch.column];
        if (column.group.isEmpty())
            whole = &column;
        sizes[{fetch.cell.prefix, column.group.isEmpty() ? ~quint64(0) : column.member}] = fetch.count;
    }
    qint64 total = 0;
    std::set<quint64> counted;
    for (const auto &[cell, count] : sizes) {
        if (!whole) {
            total += count;
        } else if (counted.insert(cell.first).second) {
            const auto all = whole->buckets.find(cell.first);
            total += all == whole->buckets.end() ? 0 : all->second;
        }
    }
    return total <= m_shipAtMost;
}

bool ServerOrderStatistics::run(const ClickHouseClient &client, const QStringList &with, const QString &fromWhere,
                                QString *error)
{
    // Columns without a group, in one quantilesExactIf query: one read of
    // the rows, cheaper here than a pass 1 per column.
    std::vector<Family> all;
    std::vector<size_t> direct;
    QString directText;
    for (Family &family : families()) {
        const bool counted
            = std::any_of(family.columns.begin(), family.columns.end(), [&](size_t i) { return m_columns[i].counted; });
        if (!m_alwaysBuckets && family.group.isEmpty() && !counted) {
            for (const size_t i : family.columns)
                direct.push_back(i);
            directText += QLatin1Char(' ') + family.value + QLatin1Char(' ') + family.condition;
        } else {
            all.push_back(std::move(family));
        }
    }
    if (!direct.empty() && !selectDirectly(client, direct, neededDefinitions(with, directText), fromWhere, error))
        return false;

    // Pass 1 and any refinement per family (each its own GROUP BY), then
    // pass 2 for all of them in one query: one more read of the rows.
    // Pass 2 by the keys of whole buckets where they are few (a query per
    // family), by quantilesExactIf per cell for the others.
    m_shipped.clear();
    std::vector<std::vector<Fetch>> queried(all.size());
    QString text;
    for (size_t f = 0; f < all.size(); ++f) {
        const Family &family = all[f];
        const QString uses = family.value + QLatin1Char(' ') + family.condition + QLatin1Char(' ') + family.group;
        const QString needed = neededDefinitions(with, uses);
        const bool counted
            = std::all_of(family.columns.begin(), family.columns.end(), [&](size_t i) { return m_columns[i].counted; });
        if (!(counted ? checkCounts(family, error) : countBuckets(client, family, needed, fromWhere, error))
            || !locateCells(client, family, needed, fromWhere, &queried[f], error))
            return false;
        if (shippable(queried[f])) {
            if (!shipCells(client, family, queried[f], needed, fromWhere, error))
                return false;
            queried[f].clear();
        } else {
            text += QLatin1Char(' ') + uses;
        }
    }
    return selectCells(client, all, queried, neededDefinitions(with, text), fromWhere, error);
}
