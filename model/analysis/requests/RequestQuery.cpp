#include "RequestQuery.h"

#include "analysis/stats/StableKeySort.h"
#include "store/RequestTable.h"

#include <QCollator>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string_view>
#include <thread>

namespace {

bool isCancelled(const std::atomic<bool> *cancelled)
{
    return cancelled && cancelled->load(std::memory_order_relaxed);
}

bool containsCaseInsensitive(std::string_view haystack, std::string_view needle)
{
    if (needle.empty())
        return true;
    const auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                                [](char a, char b) { return (a >= 'A' && a <= 'Z' ? char(a + 32) : a) == b; });
    return it != haystack.end();
}

// Sorts `items` (key, row) with `less` on up to two threads: each half is
// sorted on its own thread, then merged.
template<typename Item, typename Less> void parallelSort(std::vector<Item> &items, int threads, Less less)
{
    if (threads < 2 || items.size() < 65536) {
        std::sort(items.begin(), items.end(), less);
        return;
    }
    const auto middle = items.begin() + qsizetype(items.size() / 2);
    std::thread worker([&] { std::sort(items.begin(), middle, less); });
    std::sort(middle, items.end(), less);
    worker.join();
    std::inplace_merge(items.begin(), middle, items.end(), less);
}

} // namespace

QString RequestQuery::filterLabel() const
{
    QStringList parts;
    if (!text.isEmpty())
        parts.append(QStringLiteral("text ~ \"%1\"").arg(text));
    if (!attribute.isEmpty())
        parts.append(QStringLiteral("%1 = %2").arg(attribute, value));
    return parts.join(QStringLiteral(" and "));
}

namespace RequestQueries {

RowSet filter(const RequestTable &table, const RequestQuery &query, const std::atomic<bool> *cancelled,
              qsizetype firstRow)
{
    const qsizetype rows = table.rowCount();
    firstRow = std::clamp<qsizetype>(firstRow, 0, rows);
    if (!query.filters()) {
        std::vector<qint32> every(size_t(rows - firstRow));
        std::iota(every.begin(), every.end(), qint32(firstRow));
        return RowSet::fromSortedUnique(std::move(every));
    }
    const QByteArray needle = query.text.toLower().toUtf8();
    const std::string_view needleView(needle.constData(), size_t(needle.size()));

    // Per categorical column: which codes match the text (one string test
    // per distinct value, not per row).
    std::vector<std::vector<bool>> textCodes;
    if (!query.text.isEmpty()) {
        for (const AttributeColumn &column : table.attributes()) {
            std::vector<bool> matches;
            if (!column.isNumeric()) {
                matches.resize(size_t(column.valueCount()));
                for (qsizetype code = 1; code < column.valueCount(); ++code)
                    matches[size_t(code)] = column.values()[code].contains(query.text, Qt::CaseInsensitive);
            }
            textCodes.push_back(std::move(matches));
        }
    }
    const AttributeColumn *condition = query.attribute.isEmpty() ? nullptr : table.attribute(query.attribute);
    const bool wantAbsent = query.value == QStringLiteral("(none)");
    quint32 wantedCode = 0;
    double wantedNumber = std::nan("");
    if (condition && !condition->isNumeric())
        wantedCode = wantAbsent ? 0 : condition->codeOf(query.value);
    else if (condition && !wantAbsent)
        wantedNumber = query.value.toDouble();

    std::vector<qint32> result;
    for (qsizetype row = firstRow; row < rows; ++row) {
        if ((row & 0xFFFF) == 0 && isCancelled(cancelled))
            return {};
        if (!query.attribute.isEmpty()) {
            if (!condition)
                continue;
            if (!condition->isNumeric()) {
                if (condition->code(row) != wantedCode || (!wantAbsent && wantedCode == 0))
                    continue;
            } else {
                const double number = condition->number(row);
                if (wantAbsent ? !std::isnan(number) : number != wantedNumber)
                    continue;
            }
        }
        if (!query.text.isEmpty()) {
            bool match = containsCaseInsensitive(table.id(row), needleView);
            for (size_t a = 0; !match && a < textCodes.size(); ++a) {
                const AttributeColumn &column = table.attributes()[a];
                match = !column.isNumeric() && textCodes[a][column.code(row)];
            }
            if (!match)
                continue;
        }
        result.push_back(qint32(row));
    }
    return RowSet::fromSortedUnique(std::move(result));
}

std::vector<qint32> sort(const RequestTable &table, const RowSet &rows, const RequestQuery &query, int threads,
                         const std::atomic<bool> *cancelled)
{
    std::vector<qint32> ordered(rows.begin(), rows.end());
    if (!query.sorted)
        return ordered;
    const RequestColumn &column = query.sortColumn;
    const bool descending = query.descending;

    if (column.kind == RequestColumn::Kind::Id) {
        // Ids often share a long prefix ("req-0000..."): skip what every id
        // shares and compare the next 8 bytes as one integer, falling back
        // to the whole string only on a tie.
        size_t common = ordered.empty() ? 0 : table.id(ordered.front()).size();
        const std::string_view first = ordered.empty() ? std::string_view() : table.id(ordered.front());
        for (const qint32 row : ordered) {
            const std::string_view id = table.id(row);
            common = std::min(common, id.size());
            size_t same = 0;
            while (same < common && id[same] == first[same])
                ++same;
            common = same;
        }
        struct IdKey
        {
            quint64 prefix;
            qint32 row;
        };
        std::vector<IdKey> items;
        items.reserve(ordered.size());
        for (const qint32 row : ordered) {
            const std::string_view id = table.id(row);
            quint64 prefix = 0;
            for (size_t i = 0; i < 8; ++i) {
                const size_t at = common + i;
                prefix = (prefix << 8) | (at < id.size() ? quint64(static_cast<unsigned char>(id[at])) : 0u);
            }
            items.push_back({prefix, row});
        }
        parallelSort(items, threads, [&table, descending, common](const IdKey &a, const IdKey &b) {
            if (a.prefix != b.prefix)
                return descending ? a.prefix > b.prefix : a.prefix < b.prefix;
            const int order = table.id(a.row).substr(common).compare(table.id(b.row).substr(common));
            if (order != 0)
                return descending ? order > 0 : order < 0;
            return a.row < b.row;
        });
        for (size_t i = 0; i < items.size(); ++i)
            ordered[i] = items[i].row;
        return ordered;
    }

    // Every other column sorts by a number: categorical values by the rank
    // of their text, so "tier 2" < "tier 10".
    std::vector<double> codeRank;
    const AttributeColumn *attribute
        = column.kind == RequestColumn::Kind::Attribute ? &table.attributes()[size_t(column.attribute)] : nullptr;
    if (attribute && !attribute->isNumeric()) {
        std::vector<qint32> codes(size_t(attribute->valueCount()));
        std::iota(codes.begin(), codes.end(), 0);
        QCollator collator;
        collator.setNumericMode(true);
        std::sort(codes.begin() + 1, codes.end(), [&](qint32 a, qint32 b) {
            return collator.compare(attribute->values()[a], attribute->values()[b]) < 0;
        });
        codeRank.assign(codes.size(), std::nan(""));
        for (size_t i = 1; i < codes.size(); ++i)
            codeRank[size_t(codes[i])] = double(i);
    }
    std::vector<StableKeySort::KeyedRow> items;
    items.reserve(ordered.size());
    for (const qint32 row : ordered) {
        double key = 0.0;
        switch (column.kind) {
        case RequestColumn::Kind::Attribute:
            key = attribute->isNumeric() ? attribute->number(row) : codeRank[attribute->code(row)];
            break;
        case RequestColumn::Kind::PromptTokens:
            key = table.promptTokens(row);
            break;
        case RequestColumn::Kind::OutputTokens:
            key = table.outputTokens(row);
            break;
        case RequestColumn::Kind::Metric:
            key = metricValueMs(table, row, column.metric, query.boundary);
            break;
        case RequestColumn::Kind::Id:
            break;
        }
        items.push_back({StableKeySort::orderedKey(key, descending), row});
    }
    // `ordered` came in ascending row order and the radix sort is stable:
    // ties keep row order in both directions.
    if (isCancelled(cancelled) || !StableKeySort::sort(items, cancelled))
        return {};
    for (size_t i = 0; i < items.size(); ++i)
        ordered[i] = items[i].row;
    return ordered;
}

RequestQueryResult run(const RequestTable &table, const RequestQuery &query, int threads,
                       const std::atomic<bool> *cancelled)
{
    RequestQueryResult result;
    result.filtered = query.filters();
    result.matching = filter(table, query, cancelled);
    result.ordered = sort(table, result.matching, query, threads, cancelled);
    return result;
}

} // namespace RequestQueries
