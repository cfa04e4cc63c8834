#pragma once

#include "ClickHouseClient.h"
#include "TracelaneSchema.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassFilter.h"
#include "analysis/exceedance/RequestFeature.h"
#include "analysis/requests/Metric.h"
#include "analysis/requests/MetricMean.h"
#include "analysis/stats/ExactSum.h"
#include "store/RequestTable.h"

#include <QSet>
#include <QString>

#include <map>
#include <memory>

// The requests of a Tracelane table as the server sees them, for analyses the
// server computes: SQL for a metric in exactly the arithmetic of
// metricValueMs() (integer ns differences, then / 1e6, ITL / (tokens − 1)),
// the rows in range, and class dimensions. A dimension's classes are decided
// here exactly as on a loaded trace: its distinct raw values (tens, not
// millions) are fetched into a small RequestTable, ClassColumn::build labels
// them, and the server maps raw values to class codes with transform().
class ServerRequests
{
public:
    __extension__ typedef __int128 Int128;

    explicit ServerRequests(const ClickHouseClient &client)
        : m_client(client)
    { }

    // Reads which attributes the table's rows carry (in first-seen order, as
    // a loader interns them) so dimensions resolve as on the file.
    bool open(QString *error);
    // Enough of open() for `keys` (the --by dimensions): when each names an
    // attribute directly (not a token band, cached_prefix, workflow_type or a
    // name with "cache", whose resolution depends on the other attributes),
    // one early-stopping query per key finds it and its kind; else open().
    bool openFor(const QStringList &keys, QString *error);

    const ClickHouseClient &client() const { return m_client; }
    // The attribute columns only (no rows): what classDimensionFromKey reads.
    const RequestTable &attributeNames() const { return m_names; }
    // Whether the table keeps `key`'s values in a class column (schema
    // version 2; TracelaneSchema::classColumn), which rawSql then reads.
    bool hasClassColumn(const QString &key) const { return m_classColumns.contains(TracelaneSchema::classColumn(key)); }

    // FROM and WHERE of the rows the analyses read: the URL's time range,
    // and the filter's classes when one is set.
    QString fromWhere() const;
    // FROM and WHERE of the rows in the URL's time range (no filter), and
    // the filter's condition alone (empty without one).
    QString rangeFromWhere() const;
    const QString &filterSql() const { return m_filter; }
    // The first client send of the rows in the time range (the filter
    // aside): what a loaded trace's arrival times count from. kNoTime when
    // no row has one.
    bool firstSend(qint64 *ns, QString *error) const;
    // Only the rows of `filter`'s classes (--where), classed as on the file:
    // each dimension's classes from the distinct raw values of every row in
    // the time range, so a class or band is the same whatever the filter
    // keeps. Call open() or openFor() with the filter's dimensions first.
    // False with the file's message for an unknown dimension or class.
    bool setFilter(const ClassFilter &filter, const ClassBands &bands, QString *error);
    bool hasFilter() const { return !m_filter.isEmpty(); }
    // The distinct raw values of `dimension` (rawSql) over every row in the
    // time range, the filter aside.
    bool distinctRawValues(const ClassDimension &dimension, QStringList *values, QString *error) const;
    // `fromWhere` (" FROM table [WHERE c]") with `prewhere` as its PREWHERE
    // and `where` added to its WHERE: MergeTree reads and computes the other
    // columns only for the rows that pass the PREWHERE (a class code's
    // attribute lookups, for a few percent of the rows).
    // With `arrayJoin` (" ARRAY JOIN ..." without the keywords) between the
    // table and the PREWHERE when given. An empty `prewhere` adds none.
    static QString withPrewhere(const QString &fromWhere, const QString &prewhere, const QString &where = {},
                                const QString &arrayJoin = {});
    // Whether `metric` is defined for a row, and its value in ms (Float64).
    static QString definedSql(Metric metric, Boundary boundary);
    static QString valueSql(Metric metric, Boundary boundary);
    // A numeric feature's SQL: whether the row has a value (NaN does not
    // count) and the value (Float64), as featureValues() gives it on a
    // loaded trace. False for a categorical attribute and for what the
    // table does not hold (the per-token figures).
    static bool featureSql(const RequestFeature &feature, QString *defined, QString *value);
    // SQL: a row whose `metric` is defined is in the exceedance set above
    // `threshold` (with definedSql, the set; its negation, the rest).
    static QString aboveSql(Metric metric, Boundary boundary, double threshold);

    // A numeric attribute of more than ClassColumn::kMaxNumericCategories
    // values is classed in quartile bands (ClassColumn's rule): for such a
    // dimension this finds the bands' edges from the order statistics of its
    // finite values on the server, after which rawSql gives a row's band and
    // classColumn labels the bands as on the file. Call it before rawSql for
    // each dimension; it does nothing for the others.
    bool prepareDimension(const ClassDimension &dimension, QString *error);

    // The SQL of a row's raw value for `dimension` (the token count, an
    // attribute's bits or band, or '=' and its text; '' when the row lacks
    // it). False with `error` when the dimension cannot be computed on the
    // server.
    bool rawSql(const ClassDimension &dimension, QString *raw, QString *error) const;
    // The class column of `dimension` over its distinct raw values (as rawSql
    // gives them, in any order), and the SQL giving each row its class code;
    // codes[i] of the column is the class of values[i] once sorted as here.
    bool classColumn(const ClassDimension &dimension, const ClassBands &bands, QStringList values, ClassColumn *column,
                     QStringList *sortedValues, QString *codeSql, QString *error) const;

    // Exact sums (analysis/stats/ExactSum): columns for an inner SELECT
    // cutting `value` into the five limbs (aliases `prefix`_x0 ... _x4 and
    // `prefix`_s), evaluated as 0 where `defined` is false so no infinity
    // reaches an integer conversion; then the five integer sums of the limbs
    // over the rows where `condition` holds, and the sum they make.
    static QString limbColumnsSql(const QString &value, const QString &defined, const QString &prefix);
    static QStringList limbSumsSql(const QString &prefix, const QString &condition);
    static ExactSum limbSums(const QStringList &fields, qsizetype first);
    // An Int64 column's sum where `condition` holds, as two sums (quotient
    // and remainder by 2^32) so no shard's sum can wrap, and their total.
    static QStringList integerSumSql(const QString &expression, const QString &condition);
    static Int128 integerSum(const QStringList &fields, qsizetype first);
    // An Int64 expression's exact sum over a group of fewer than 2^32 rows,
    // cheaper than integerSumSql: its wrapping sum (the sum mod 2^64) and the
    // sum of its high halves (x >> 32, arithmetic: floor(x / 2^32)), which
    // cannot wrap. The low halves' sum is then the difference mod 2^64.
    static QStringList wrappedSumSql(const QString &expression);
    static Int128 wrappedSum(const QStringList &fields, qsizetype first);

    // A metric's integer ns (end - begin) for the metrics MetricMean sums
    // as whole ns (not ITL).
    static QString nsSql(Metric metric, Boundary boundary);
    // The value valueSql computes, from the row's nsSql and output tokens,
    // in the same arithmetic (metricValueMs'): for a caller that fetched a
    // few rows' integers instead of their values.
    static double valueMs(Metric metric, qint64 ns, qint32 outputTokens);

    // The error when a read finds `read` values where an earlier read
    // counted `counted` (rows inserted or merged away in between).
    static QString rowsChanged(qint64 read, qint64 counted);

    // Float64 bits <-> SQL, so no value passes through decimal text.
    static QString float64Sql(double value);
    static QString float64BitsSql(const QString &expression);
    static double float64FromBits(const QString &bits);

private:
    struct NumericBands
    {
        std::vector<double> edges; // ascending; a value's band is how many are <= it
        double lowest = 0;         // the smallest finite value
    };

    bool readClassColumns(QString *error);

    const ClickHouseClient &m_client;
    RequestTable m_names;
    QSet<QString> m_classColumns;
    std::map<QString, NumericBands> m_bands; // by attribute
    QString m_filter;                        // SQL condition of --where, or empty
};

// The sums behind a metric's mean as MetricMean takes it: Int64 ns sums for
// whole-ns metrics, ExactSum's limb sums for ITL. Read sums add up, so a
// table's overall mean is the sum of its classes' sums.
class ServerMeanSums
{
public:
    explicit ServerMeanSums(Metric metric = Metric::Ttft)
        : m_metric(metric)
    { }

    // Columns for the inner SELECT (aliases `prefix`_...), given the defined
    // and value aliases there.
    static QString innerSql(Metric metric, Boundary boundary, const QString &defined, const QString &value,
                            const QString &prefix);
    // The sums where `condition` holds, and how many fields they take.
    static QStringList sumsSql(Metric metric, const QString &prefix, const QString &condition);
    static int width(Metric metric) { return MetricMean::isWholeNs(metric) ? 2 : ExactSum::kLimbs; }

    // Adds the sums at fields[first ...].
    void add(const QStringList &fields, qsizetype first);
    double mean(qint64 n) const;

private:
    Metric m_metric;
    ServerRequests::Int128 m_ns = 0;
    ExactSum::Limbs m_limbs{};
};
