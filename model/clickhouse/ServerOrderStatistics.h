#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <map>
#include <set>
#include <span>
#include <vector>

class ClickHouseClient;

// Order statistics of several columns at once, picked by the server so that
// only counts and a few values travel from the shards. A class table's
// columns (one per class, one group expression telling the classes apart,
// and the overall column) go in two passes:
//
// 1. The count of each class's values in each bucket of the value's order
//    key (its Float64 bits mapped so that unsigned order is numeric order;
//    the bucket is the key's top kBucketBits bits): a GROUP BY that each
//    shard aggregates, or the caller's own (setBuckets). The cumulative
//    counts say which bucket holds each wanted rank and its rank there. A
//    bucket of more than kRefineAbove values (a narrow peak, ties) is split
//    by the next kRefineBits bits of the key, again and again if need be; a
//    cell of all 64 bits is one value, known without a query.
// 2. When the cells are whole buckets of at most kShipAtMost values in all,
//    their order keys travel (GROUP BY group and bucket, groupArray: one
//    aggregate, where an aggregate per cell costs 18.16 twice the read) and
//    are ordered here; they also tell how many values lie above any value
//    of those buckets (countAbove). Otherwise
//    quantilesExactIf over just those cells' values (PREWHERE on the cells,
//    so the group is computed for those rows only), at level (r + 0.5) / c
//    for rank r of a cell's c values: element floor(level · c) = r in order
//    (nth_element, no sort; ClickHouse 18.16 has no quantileExactLow), with
//    half a rank to spare for rounding.
//
// Columns without a group (a profile's metrics, one threshold) are selected
// directly, all in one quantilesExactIf query at level (r + 0.5) / n: every
// value travels, but the rows are read once where the passes read them twice
// per column. Only the ranks a figure needs come back, as Float64 bits, and
// a percentile between two of them is interpolated here as
// Percentile::ofSorted does, so every figure equals the file's. NaN values
// (none of Tracelane's metrics can be NaN: they are integer ns differences)
// are counted in n but not ordered, as quantilesExactIf skips them: rank r of
// n is element floor((r + 0.5) / n · m) of the m ordered values, either way.
class ServerOrderStatistics
{
public:
    // The key's top bits that name a bucket: 12 of sign and exponent and 8 of
    // mantissa, so a bucket spans 1/256 of an octave.
    static constexpr int kBucketBits = 20;

    // The two neighbours (0-based ranks) of each percentile in `qs`.
    static std::set<qint64> percentileRanks(qint64 n, std::span<const double> qs);

    // The order key of a value as the SQL computes it: -0 as 0, and every
    // NaN 0 (below every number's key, alone in bucket 0).
    static quint64 orderKey(double value);
    static quint64 bucketOf(double value) { return orderKey(value) >> (64 - kBucketBits); }
    // The value whose order key is `key` (+0 for the key of -0 and 0).
    static double valueOfKey(quint64 key);

    // Asks for `ranks` (0-based) of `value` over the rows where `condition`
    // holds and, when `group` (an integer expression) is not empty, `group`
    // equals `member`; that must be n rows. Columns with the same value and
    // condition are counted in one pass-1 query: a class table's classes
    // (one group expression, a member each) and its overall row (no group).
    // Returns the column's index.
    int add(const QString &value, const QString &condition, qint64 n, const std::set<qint64> &ranks,
            const QString &group = {}, quint64 member = 0);

    // A cell of more than this many values is split by the next kRefineBits
    // bits of the key before its values are selected (a narrow peak, ties).
    static constexpr qint64 kRefineAbove = 1'000'000;
    static constexpr int kRefineBits = 12;
    // For tests: refine cells of more than `count` values.
    void setRefineAbove(qint64 count) { m_refineAbove = count; }
    // The cells' keys travel when they are whole buckets of at most this
    // many values in all (a family at a time); for tests, 0: never (also
    // the environment's TRACELANE_CLICKHOUSE_SHIP_AT_MOST, for the CLI).
    static constexpr qint64 kShipAtMost = 1'000'000;
    void setShipAtMost(qint64 count) { m_shipAtMost = count; }
    // Columns without a group are selected directly, all in one
    // quantilesExactIf query (every value shipped, but one read of the rows
    // where two passes need two per column: cheaper for a profile's five
    // metrics or one threshold); for tests, the bucket passes for them too.
    void setAlwaysBuckets(bool always) { m_alwaysBuckets = always; }

    // The order key of `value` as SQL (a UInt64, as orderKey computes it).
    static QString keySql(const QString &value);
    // The bucket of `value` as SQL (a UInt64): for a caller that counts the
    // buckets in a GROUP BY of its own and hands them over (setBuckets).
    static QString bucketSql(const QString &value);
    // Pass 1 done by the caller: column `index`'s count per bucket (bucketSql
    // over its rows). A family whose columns all have them skips pass 1.
    void setBuckets(int index, std::map<quint64, qint64> buckets);

    // The queries over ` FROM table [WHERE ...]` (`fromWhere`: the table
    // itself, a Distributed one included, so its shards aggregate), with
    // `with` the definitions ("expression AS name") the values, conditions
    // and groups may use. Each query carries only the definitions it needs:
    // ClickHouse 18.16 computes every WITH expression, used or not. False
    // with `error` set when the server fails or its counts are not the n
    // given (rows changed).
    bool run(const ClickHouseClient &client, const QStringList &with, const QString &fromWhere, QString *error);

    qint64 n(int index) const { return m_columns[size_t(index)].n; }
    // The value at a 0-based rank that was asked for.
    double at(int index, qint64 rank) const { return m_columns[size_t(index)].values.at(rank); }
    // The percentile q of the n values, NaN when n == 0.
    double percentile(int index, double q) const;
    // The count of column `index`'s values in each bucket with one (NaN in
    // bucket 0), from pass 1; empty for a column with nothing asked.
    const std::map<quint64, qint64> &buckets(int index) const { return m_columns[size_t(index)].buckets; }
    // The count of column `index`'s values above `value` (not NaN), when
    // pass 1's buckets and the keys that travelled in pass 2 tell it: false
    // when `value`'s bucket holds some of the column's values whose keys did
    // not all travel (then a query must count them).
    bool countAbove(int index, double value, qint64 *count) const;
    // How many order keys travelled in pass 2 (at most the shipping budget).
    qint64 shippedKeys() const;

private:
    struct Column
    {
        QString value;
        QString condition;
        QString group;
        quint64 member = 0;
        qint64 n = 0;
        std::set<qint64> ranks;
        std::map<qint64, double> values;
        std::map<quint64, qint64> buckets;
        bool counted = false; // buckets given by setBuckets
    };
    // Columns sharing a value, condition and group expression (or no group).
    struct Family
    {
        QString value;
        QString condition;
        QString group;
        std::vector<size_t> columns;
    };
    std::vector<Family> families() const;
    // The definitions the queries add to the caller's: the value's key,
    // bucket and group (named with `suffix`, one per column family in a
    // query); withSql() puts them after `with` in a WITH clause.
    static QString keyDefinitions(const QString &value, const QString &group, const QString &suffix = {});
    static QString withSql(const QString &with, const QString &value, const QString &group);
    // The definitions of `with` that `text` uses, directly or through another.
    static QString neededDefinitions(const QStringList &with, const QString &text);
    // The one row `sql` answers with `columns` fields; false with `error`
    // set when the server fails or answers another number of rows.
    static bool selectRow(const ClickHouseClient &client, const QString &sql, int columns, QStringList *fields,
                          QString *error);
    bool countBuckets(const ClickHouseClient &client, const Family &family, const QString &with,
                      const QString &fromWhere, QString *error);
    bool checkCounts(const Family &family, QString *error) const;
    struct Fetch;
    bool selectDirectly(const ClickHouseClient &client, const std::vector<size_t> &asked, const QString &with,
                        const QString &fromWhere, QString *error);
    bool locateCells(const ClickHouseClient &client, const Family &family, const QString &with,
                     const QString &fromWhere, std::vector<Fetch> *queried, QString *error);
    static qint64 shipAtMostByDefault();
    bool shippable(const std::vector<Fetch> &fetches) const;
    bool shipCells(const ClickHouseClient &client, const Family &family, const std::vector<Fetch> &fetches,
                   const QString &with, const QString &fromWhere, QString *error);
    bool selectCells(const ClickHouseClient &client, const std::vector<Family> &families,
                     const std::vector<std::vector<Fetch>> &queried, const QString &with, const QString &fromWhere,
                     QString *error);

    // The keys that travelled for one family: sorted, per bucket and group
    // member (0 without a group).
    struct Shipped
    {
        QString value;
        QString condition;
        QString group;
        std::map<std::pair<quint64, quint64>, std::vector<quint64>> keys;
    };

    std::vector<Column> m_columns;
    std::vector<Shipped> m_shipped;
    qint64 m_refineAbove = kRefineAbove;
    qint64 m_shipAtMost = shipAtMostByDefault();
    bool m_alwaysBuckets = false;
};
