#include "ServerSetComparison.h"

#include "ServerOrderStatistics.h"
#include "ServerRequests.h"
#include "TracelaneSchema.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/stats/Percentile.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace {

// A numeric feature as the server computes it.
struct NumericFeature
{
    RequestFeature feature;
    QString defined;      // SQL: the row has the value (NaN counts as not)
    QString value;        // SQL: the value, Float64
    bool ranked = true;   // false: read for a member's place alone
    qsizetype place = -1; // the member's place in this feature, if asked
};

// The order keys [first, first + 2^(64 - bits)) of one feature, and each
// group's count and lowest and highest key among them.
struct Cell
{
    int bits = 0;
    qint64 count[2] = {0, 0}; // the set's, the rest's
    quint64 low[2] = {~quint64(0), ~quint64(0)};
    quint64 high[2] = {0, 0};

    quint64 lowest() const
    {
        return std::min(count[0] > 0 ? low[0] : ~quint64(0), count[1] > 0 ? low[1] : ~quint64(0));
    }
    quint64 highest() const { return std::max(count[0] > 0 ? high[0] : 0, count[1] > 0 ? high[1] : 0); }
    bool singleValue() const { return lowest() == highest(); }
    bool singleValueOf(int group) const { return count[group] == 0 || low[group] == high[group]; }
};

// One feature's cells by their first key: disjoint, covering its values.
using Cells = std::map<quint64, Cell>;

quint64 firstKey(quint64 prefix, int bits)
{
    return bits >= 64 ? prefix : prefix << (64 - bits);
}

quint64 prefixOf(quint64 first, int bits)
{
    return bits >= 64 ? first : first >> (64 - bits);
}

double valueAt(quint64 key)
{
    return ServerOrderStatistics::valueOfKey(key);
}

// ` FROM table [ARRAY JOIN ...] [PREWHERE ...] [WHERE ...]` with
// `conditions` added (a PREWHERE keeps rows before their arrays are formed).
QString withConditions(const QString &fromWhere, const QStringList &conditions, const QString &prewhere = {},
                       const QString &arrayJoin = {})
{
    const QString all = conditions.isEmpty()
        ? QString()
        : QStringLiteral("(") + conditions.join(QStringLiteral(") AND (")) + QLatin1Char(')');
    return ServerRequests::withPrewhere(fromWhere, prewhere, all, arrayJoin);
}

std::vector<NumericFeature> numericFeatures(const ServerRequests &requests, const ExceedanceSpec &spec,
                                            std::vector<RequestFeature> *categorical)
{
    std::vector<RequestFeature> features;
    for (const Phase phase : kAllPhases) {
        const Metric metric = phaseMetric(phase);
        if (metric != spec.metric) // the metric defining the set is never ranked
            features.push_back(RequestFeature::ofMetric(metric, spec.boundary));
    }
    for (const bool prompt : {true, false})
        features.push_back(RequestFeature::ofTokens(prompt));
    const RequestTable &names = requests.attributeNames();
    for (size_t i = 0; i < names.attributes().size(); ++i)
        features.push_back(RequestFeature::ofAttribute(names, qsizetype(i)));
    std::vector<NumericFeature> result;
    for (const auto &feature : features) {
        NumericFeature numeric{feature, {}, {}};
        if (ServerRequests::featureSql(feature, &numeric.defined, &numeric.value))
            result.push_back(numeric);
        else
            categorical->push_back(feature);
    }
    return result;
}

// Each group's count over the cells: the set's, the rest's.
std::array<qint64, 2> totals(const Cells &cells)
{
    std::array<qint64, 2> n = {0, 0};
    for (const auto &[first, cell] : cells) {
        n[0] += cell.count[0];
        n[1] += cell.count[1];
    }
    return n;
}

// The median of `group`'s `n` values, once every cell holding one of its
// neighbouring ranks holds one value of that group (NaN when n is 0).
double medianOf(const Cells &cells, int group, qint64 n)
{
    if (n == 0)
        return std::numeric_limits<double>::quiet_NaN();
    const auto neighbours = Percentile::neighbours(n, 0.5);
    const auto at = [&](qint64 rank) {
        qint64 seen = 0;
        for (const auto &[first, cell] : cells) {
            if (rank < seen + cell.count[group])
                return valueAt(cell.low[group]);
            seen += cell.count[group];
        }
        return std::numeric_limits<double>::quiet_NaN();
    };
    return neighbours.lo == neighbours.hi
        ? at(neighbours.lo)
        : Percentile::interpolate(at(neighbours.lo), at(neighbours.hi), neighbours.fraction);
}

// |F_set − F_rest| at the cells' ends as KolmogorovSmirnov::of walks it
// (`n`: each group's count, both above 0): the largest and the first cell
// reaching it (0 when it is 0 everywhere).
std::pair<double, quint64> largestAtCellEnds(const Cells &cells, const std::array<qint64, 2> &n)
{
    const auto dn = double(n[0]);
    const auto dm = double(n[1]);
    double best = 0.0;
    quint64 bestAt = 0;
    qint64 i = 0;
    qint64 j = 0;
    for (const auto &[first, cell] : cells) {
        i += cell.count[0];
        j += cell.count[1];
        const double gap = std::abs(double(i) / dn - double(j) / dm);
        if (gap > best) {
            best = gap;
            bestAt = first;
        }
    }
    return {best, bestAt};
}

class NumericRanking
{
public:
    NumericRanking(const ServerRequests &requests, const ExceedanceSpec &spec, double threshold, qint64 exactUpTo,
                   std::vector<ServerSetComparison::MemberPlace> *places)
        : m_requests(requests)
        , m_set(ServerRequests::aboveSql(spec.metric, spec.boundary, threshold))
        , m_observed(ServerRequests::definedSql(spec.metric, spec.boundary))
        , m_exactUpTo(exactUpTo)
        , m_places(places)
    { }

    bool compute(std::vector<NumericFeature> features, std::vector<FeatureSeparation> *result, QString *error);

private:
    // Reads the cells of `feature` with the prefixes of `bits` bits (its
    // whole range when `bits` is 0) at `newBits`, replacing them.
    bool read(size_t feature, const std::set<quint64> &prefixes, int bits, int newBits, QString *error);
    std::set<quint64> cellsToSplit(size_t feature) const;
    FeatureSeparation separation(size_t feature) const;
    void findPlace(size_t feature) const;

    const ServerRequests &m_requests;
    QString m_set;      // SQL: the row is in the set
    QString m_observed; // SQL: the row is in the set or the rest
    qint64 m_exactUpTo;
    std::vector<ServerSetComparison::MemberPlace> *m_places;
    std::vector<NumericFeature> m_features;
    std::vector<Cells> m_cells;
};

bool NumericRanking::read(size_t feature, const std::set<quint64> &prefixes, int bits, int newBits, QString *error)
{
    const auto &numeric = m_features[feature];
    QStringList conditions = {m_observed, numeric.defined};
    QString prewhere;
    if (bits > 0) {
        // Only the split cells' rows are read further (a few percent),
        // picked by their key's prefix (ranges of values as decimal literals
        // cost 18.16 more: two comparisons per range and row).
        QStringList listed;
        for (const quint64 prefix : prefixes)
            listed << QString::number(prefix);
        prewhere = QStringLiteral("%1 AND bitShiftRight(%2, %3) IN (%4)")
                       .arg(numeric.defined, ServerOrderStatistics::keySql(numeric.value))
                       .arg(64 - bits)
                       .arg(listed.join(QLatin1Char(',')));
    }
    // Cell and group as one UInt64 (a cell's prefix and the set's bit)
    // group faster than the two as keys; exact keys fill all 64 bits.
    const bool exact = newBits >= 64;
    const QString groups = exact
        ? QStringLiteral("tl_key, tl_set")
        : QStringLiteral("bitOr(bitShiftLeft(bitShiftRight(tl_key, %1), 1), toUInt64(tl_set))").arg(64 - newBits);
    const QString sql = QStringLiteral("WITH %1 AS tl_set, %2 AS tl_key SELECT %3, count(), min(tl_key), max(tl_key)%4 "
                                       "GROUP BY %3")
                            .arg(m_set, ServerOrderStatistics::keySql(numeric.value), groups,
                                 withConditions(m_requests.fromWhere(), conditions, prewhere));
    std::vector<QStringList> rows;
    if (!m_requests.client().select(sql, &rows, error, exact ? 5 : 4))
        return false;
    // The split cells are replaced by what the read found in them.
    Cells found;
    for (const auto &row : rows) {
        quint64 prefix = 0;
        int group = 0;
        if (exact) {
            prefix = row[0].toULongLong();
            group = row[1].toInt() != 0 ? 0 : 1;
        } else {
            const quint64 both = row[0].toULongLong();
            prefix = both >> 1;
            group = (both & 1) != 0 ? 0 : 1;
        }
        const qsizetype counted = exact ? 2 : 1; // where count, min and max start
        Cell &cell = found[firstKey(prefix, newBits)];
        cell.bits = newBits;
        cell.count[group] = row[counted].toLongLong();
        cell.low[group] = row[counted + 1].toULongLong();
        cell.high[group] = row[counted + 2].toULongLong();
    }
    Cells &cells = m_cells[feature];
    qint64 before = 0;
    qint64 after = 0;
    for (const quint64 prefix : prefixes) {
        const auto cell = cells.find(firstKey(prefix, bits));
        before += cell->second.count[0] + cell->second.count[1];
        cells.erase(cell);
    }
    for (const auto &[first, cell] : found) {
        after += cell.count[0] + cell.count[1];
        cells[first] = cell;
    }
    if (bits > 0 && before != after) {
        *error = ServerRequests::rowsChanged(after, before);
        return false;
    }
    return true;
}

std::set<quint64> NumericRanking::cellsToSplit(size_t feature) const
{
    const Cells &cells = m_cells[feature];
    std::set<quint64> split;
    const auto n = totals(cells);
    const NumericFeature &numeric = m_features[feature];
    // A median's neighbouring ranks must lie in cells of one value of their
    // group (the rest's alone for a member's place).
    for (const int group : {0, 1}) {
        if (n[group] == 0 || (group == 0 && !numeric.ranked))
            continue;
        const auto neighbours = Percentile::neighbours(n[group], 0.5);
        qint64 seen = 0;
        for (const auto &[first, cell] : cells) {
            const qint64 end = seen + cell.count[group];
            if (((neighbours.lo >= seen && neighbours.lo < end) || (neighbours.hi >= seen && neighbours.hi < end))
                && !cell.singleValueOf(group))
                split.insert(first);
            seen = end;
        }
    }
    if (numeric.ranked && n[0] + n[1] > 0) {
        // A bin's edge must not fall inside a cell.
        const auto bins
            = EqualWidthBins::between(valueAt(cells.begin()->second.lowest()),
                                      valueAt(cells.rbegin()->second.highest()), BinnedDistributions::kBins);
        for (const auto &[first, cell] : cells) {
            if (bins.binOf(valueAt(cell.lowest())) != bins.binOf(valueAt(cell.highest())))
                split.insert(first);
        }
    }
    if (numeric.ranked && n[0] > 0 && n[1] > 0) {
        // D as KolmogorovSmirnov::of computes it, at every cell's end (a
        // value where both distribution functions are known), then the cells
        // inside which |F_set - F_rest| could pass it (or reach it before the
        // first cell reaching it): only where both groups have values, else
        // the difference moves one way across the cell.
        const auto dn = double(n[0]);
        const auto dm = double(n[1]);
        const auto [best, bestAt] = largestAtCellEnds(cells, n);
        qint64 i = 0;
        qint64 j = 0;
        for (const auto &[first, cell] : cells) {
            const qint64 i1 = i + cell.count[0];
            const qint64 j1 = j + cell.count[1];
            if (cell.count[0] > 0 && cell.count[1] > 0 && !cell.singleValue()) {
                const double bound = std::max(double(i1) / dn - double(j) / dm, double(j1) / dm - double(i) / dn);
                if (first <= bestAt ? bound >= best : bound > best)
                    split.insert(first);
            }
            i = i1;
            j = j1;
        }
    }
    // The member's value must not fall inside a cell of several rest values.
    if (numeric.place >= 0 && !std::isnan((*m_places)[size_t(numeric.place)].value)) {
        const quint64 key = ServerOrderStatistics::orderKey((*m_places)[size_t(numeric.place)].value);
        for (const auto &[first, cell] : cells) {
            if (cell.count[1] > 0 && cell.low[1] <= key && key <= cell.high[1] && cell.low[1] != cell.high[1])
                split.insert(first);
        }
    }
    return split;
}

FeatureSeparation NumericRanking::separation(size_t feature) const
{
    const Cells &cells = m_cells[feature];
    FeatureSeparation result;
    result.feature = m_features[feature].feature;
    const auto n = totals(cells);
    result.setN = n[0];
    result.restN = n[1];
    // Medians: every neighbouring rank's cell holds one value of its group.
    result.setMedian = medianOf(cells, 0, n[0]);
    result.restMedian = medianOf(cells, 1, n[1]);
    if (n[0] > 0 && n[1] > 0) {
        // KolmogorovSmirnov::of's walk, a cell at a time: inside the cells
        // of several values no point passes what their ends reach.
        const auto [best, bestAt] = largestAtCellEnds(cells, n);
        if (best > 0.0) {
            result.separation = best;
            result.ksAt = valueAt(cells.at(bestAt).highest());
        }
    }
    if (n[0] + n[1] > 0) {
        const auto bins
            = EqualWidthBins::between(valueAt(cells.begin()->second.lowest()),
                                      valueAt(cells.rbegin()->second.highest()), BinnedDistributions::kBins);
        std::vector<qint64> counts[2]
            = {std::vector<qint64>(size_t(bins.bins), 0), std::vector<qint64>(size_t(bins.bins), 0)};
        for (const auto &[first, cell] : cells) {
            const auto bin = size_t(bins.binOf(valueAt(cell.lowest())));
            counts[0][bin] += cell.count[0];
            counts[1][bin] += cell.count[1];
        }
        result.distributions = BinnedDistributions::fromCounts(bins, counts[0], counts[1]);
    }
    return result;
}

void NumericRanking::findPlace(size_t feature) const
{
    const Cells &cells = m_cells[feature];
    auto &place = (*m_places)[size_t(m_features[feature].place)];
    place.found = true;
    place.restN = totals(cells)[1];
    place.restMedian = medianOf(cells, 1, place.restN);
    if (std::isnan(place.value))
        return;
    // No cell of several rest values holds the member's value now.
    const quint64 key = ServerOrderStatistics::orderKey(place.value);
    for (const auto &[first, cell] : cells) {
        if (cell.count[1] > 0 && cell.high[1] < key)
            place.less += cell.count[1];
        else if (cell.count[1] > 0 && cell.low[1] == key)
            place.equal += cell.count[1];
    }
}

bool NumericRanking::compute(std::vector<NumericFeature> features, std::vector<FeatureSeparation> *result,
                             QString *error)
{
    m_features = std::move(features);
    m_cells.assign(m_features.size(), {});
    // One feature at a time: on 20M rows the nine features' values ARRAY
    // JOINed into one GROUP BY took 11.5 s, one GROUP BY per feature 6.2 s.
    for (size_t feature = 0; feature < m_features.size(); ++feature) {
        if (!read(feature, {}, 0, ServerSetComparison::kFirstBits, error))
            return false;
        // Split what needs a closer look until nothing does: every cell of
        // 64 bits holds one value, so this ends.
        for (;;) {
            std::map<int, std::set<quint64>> byBits; // the prefixes to split by their length
            std::map<int, qint64> rowsByBits;
            for (const quint64 first : cellsToSplit(feature)) {
                const Cell &cell = m_cells[feature].at(first);
                byBits[cell.bits].insert(prefixOf(first, cell.bits));
                rowsByBits[cell.bits] += cell.count[0] + cell.count[1];
            }
            if (byBits.empty())
                break;
            for (const auto &[bits, prefixes] : byBits) {
                const int newBits
                    = rowsByBits[bits] <= m_exactUpTo ? 64 : std::min(64, bits + ServerSetComparison::kRefineBits);
                if (!read(feature, prefixes, bits, newBits, error))
                    return false;
            }
        }
        if (m_features[feature].ranked)
            result->push_back(separation(feature));
        if (m_features[feature].place >= 0)
            findPlace(feature);
    }
    return true;
}

// A categorical attribute's value: the first row holding it (the order a
// loader interns values in), and its count in the set and in the rest.
struct Value
{
    qint64 firstRow = 0;
    QString text;
    qint64 set = 0;
    qint64 rest = 0;
};

// Categorical attributes: each value's count in the set and in the rest,
// in the order a loader interns them (by the first row holding them).
bool categoricalSeparations(const ServerRequests &requests, const ExceedanceSpec &spec, double threshold,
                            qint64 setSize, qint64 restSize, const std::vector<RequestFeature> &features,
                            std::vector<FeatureSeparation> *result, QString *error)
{
    if (features.empty())
        return true;
    // Every row in range counts for the order (the loader interns values of
    // rows a filter or an undefined metric leaves out too).
    QString in = ServerRequests::definedSql(spec.metric, spec.boundary);
    if (!requests.filterSql().isEmpty())
        in = QStringLiteral("(%1) AND %2").arg(in, requests.filterSql());
    const QString set = ServerRequests::aboveSql(spec.metric, spec.boundary, threshold);
    const QString counts = QStringLiteral("WITH %1 AS tl_in, %2 AS tl_set SELECT %3, countIf(tl_in AND tl_set), "
                                          "countIf(tl_in AND NOT tl_set), min(row)");
    std::map<QString, std::vector<Value>> byKey;
    // A key kept in a class column (schema version 2) is grouped by that
    // column ('=' and the value, '' where a row lacks it): on 20M rows two
    // such reads take a fraction of the attribute arrays' one.
    QStringList inArrays;
    for (const auto &feature : features) {
        if (!requests.hasClassColumn(feature.key)) {
            inArrays << clickHouseString(feature.key);
            continue;
        }
        const QString column = clickHouseIdentifier(TracelaneSchema::classColumn(feature.key));
        const QString sql = counts.arg(in, set, column)
            + withConditions(requests.rangeFromWhere(), {column + QStringLiteral(" != ''")})
            + QStringLiteral(" GROUP BY ") + column;
        std::vector<QStringList> rows;
        if (!requests.client().select(sql, &rows, error, 4))
            return false;
        for (const auto &row : rows)
            byKey[feature.key].push_back(
                {row[3].toLongLong(), row[0].mid(1), row[1].toLongLong(), row[2].toLongLong()});
    }
    if (!inArrays.isEmpty()) {
        const QString sql = counts.arg(in, set, QStringLiteral("tl_k, tl_v"))
            + withConditions(requests.rangeFromWhere(),
                             {QStringLiteral("tl_k IN (%1)").arg(inArrays.join(QLatin1Char(',')))}, {},
                             QStringLiteral("attr_keys AS tl_k, attr_values AS tl_v"))
            + QStringLiteral(" GROUP BY tl_k, tl_v");
        std::vector<QStringList> rows;
        if (!requests.client().select(sql, &rows, error, 5))
            return false;
        for (const auto &row : rows)
            byKey[row[0]].push_back({row[4].toLongLong(), row[1], row[2].toLongLong(), row[3].toLongLong()});
    }
    for (const auto &feature : features) {
        auto &values = byKey[feature.key];
        std::sort(values.begin(), values.end(), [](const Value &a, const Value &b) {
            return a.firstRow != b.firstRow ? a.firstRow < b.firstRow : a.text.toUtf8() < b.text.toUtf8();
        });
        std::vector<QString> texts = {ClassColumn::noneLabel()};
        std::vector<qint64> setCounts = {setSize};
        std::vector<qint64> restCounts = {restSize};
        for (const auto &value : values) {
            texts.push_back(value.text);
            setCounts.push_back(value.set);
            restCounts.push_back(value.rest);
            setCounts.front() -= value.set;
            restCounts.front() -= value.rest;
        }
        if (setCounts.front() < 0 || restCounts.front() < 0) {
            *error = QStringLiteral("ClickHouse counted more values of '%1' than rows in the set or the rest; the rows "
                                    "changed while they were read")
                         .arg(feature.key);
            return false;
        }
        result->push_back(FeatureSeparation::ofCounts(feature, texts, setCounts, restCounts, setSize, restSize));
    }
    return true;
}

} // namespace

qint64 ServerSetComparison::exactUpToByDefault()
{
    bool set = false;
    const qint64 count = qEnvironmentVariable("TRACELANE_CLICKHOUSE_EXACT_UP_TO").toLongLong(&set);
    return set ? count : kExactUpTo;
}

bool ServerSetComparison::compute(const ServerRequests &requests, const ExceedanceSpec &spec, double threshold,
                                  qint64 setSize, qint64 restSize, SetComparison *result, QString *error,
                                  qint64 exactUpTo, std::vector<MemberPlace> *member)
{
    std::vector<RequestFeature> categorical;
    auto numeric = numericFeatures(requests, spec, &categorical);
    // A member's places: in the ranked features' cells, else in cells of
    // their own (read after the ranked ones, which keep their order).
    for (size_t i = 0; member && i < member->size(); ++i) {
        MemberPlace &place = (*member)[i];
        place = {place.feature, place.value};
        const auto ranked = std::find_if(numeric.begin(), numeric.end(), [&](const NumericFeature &feature) {
            return feature.feature.cacheKey() == place.feature.cacheKey();
        });
        if (ranked != numeric.end()) {
            ranked->place = qsizetype(i);
            continue;
        }
        NumericFeature alone{place.feature, {}, {}, false, qsizetype(i)};
        if (ServerRequests::featureSql(place.feature, &alone.defined, &alone.value))
            numeric.push_back(alone);
    }
    // In the file's feature order (phases, token shape, attributes), which
    // the ranking keeps among equal separations.
    std::vector<FeatureSeparation> separations;
    NumericRanking ranking(requests, spec, threshold, exactUpTo < 0 ? exactUpToByDefault() : exactUpTo, member);
    if (!ranking.compute(std::move(numeric), &separations, error))
        return false;
    std::vector<FeatureSeparation> categories;
    if (!categoricalSeparations(requests, spec, threshold, setSize, restSize, categorical, &categories, error))
        return false;
    // Attributes in their table order, numeric or not.
    const RequestTable &names = requests.attributeNames();
    std::vector<FeatureSeparation> ordered;
    size_t category = 0;
    for (auto &separation : separations) {
        if (separation.feature.group == RequestFeature::Group::Attribute)
            break;
        ordered.push_back(std::move(separation));
    }
    size_t numericAttribute = ordered.size();
    for (size_t i = 0; i < names.attributes().size(); ++i) {
        if (names.attributes()[i].isNumeric())
            ordered.push_back(std::move(separations[numericAttribute++]));
        else
            ordered.push_back(std::move(categories[category++]));
    }
    *result = SetComparison::rank(std::move(ordered));
    return true;
}
