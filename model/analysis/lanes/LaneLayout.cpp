#include "LaneLayout.h"

#include "store/RequestTable.h"

#include <QCollator>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace {

constexpr float kMissing = std::numeric_limits<float>::quiet_NaN();

struct SortEntry
{
    qint32 group = 0;
    double key = 0.0; // NaN sorts last in either direction
    qint64 origin = 0;
    qint32 row = 0;
};

bool isCancelled(const std::atomic<bool> *cancelled)
{
    return cancelled && cancelled->load(std::memory_order_relaxed);
}

// First observed stamp of a row: client send unless it was not observed.
qint64 originOf(const RequestTable &table, qsizetype row)
{
    for (int s = 0; s < kStampCount; ++s) {
        const qint64 t = table.stamp(row, static_cast<Stamp>(s));
        if (t != kNoTime)
            return t;
    }
    return kNoTime;
}

// Rank of each categorical code when its values are sorted as text
// (numbers inside text compare numerically: "tier 2" < "tier 10").
std::vector<qint32> codeRanks(const AttributeColumn &column)
{
    const QStringList &values = column.values();
    std::vector<qint32> codes(size_t(values.size()));
    std::iota(codes.begin(), codes.end(), 0);
    QCollator collator;
    collator.setNumericMode(true);
    // Code 0 (absent) always ranks last.
    std::sort(codes.begin() + 1, codes.end(),
              [&](qint32 a, qint32 b) { return collator.compare(values[a], values[b]) < 0; });
    std::vector<qint32> ranks(codes.size());
    for (size_t i = 1; i < codes.size(); ++i)
        ranks[size_t(codes[i])] = qint32(i - 1);
    ranks[0] = qint32(codes.size());
    return ranks;
}

// Group index of every row, and the groups' labels in display order.
struct Grouping
{
    std::vector<qint32> groupOfCode;   // categorical: code -> group
    std::vector<double> numericValues; // numeric: sorted distinct values
    QStringList labels;
    const AttributeColumn *column = nullptr;

    qint32 groupOf(qsizetype row) const
    {
        if (!column)
            return 0;
        if (!column->isNumeric())
            return groupOfCode[column->code(row)];
        const double value = column->number(row);
        if (std::isnan(value))
            return qint32(numericValues.size());
        return qint32(std::lower_bound(numericValues.begin(), numericValues.end(), value) - numericValues.begin());
    }
};

Grouping makeGrouping(const RequestTable &table, const QString &name, std::span<const qint32> rows)
{
    Grouping grouping;
    grouping.column = name.isEmpty() ? nullptr : table.attribute(name);
    if (!grouping.column) {
        grouping.labels.append(QString());
        return grouping;
    }
    const AttributeColumn &column = *grouping.column;
    if (!column.isNumeric()) {
        // Group = the value's rank; rows without a value form the last group.
        const auto ranks = codeRanks(column);
        const qint32 absentGroup = qint32(ranks.size() - 1);
        grouping.groupOfCode.assign(ranks.begin(), ranks.end());
        grouping.groupOfCode[0] = absentGroup;
        QStringList labels(column.valueCount());
        for (qsizetype code = 1; code < column.valueCount(); ++code)
            labels[grouping.groupOfCode[size_t(code)]] = column.values()[code];
        labels[absentGroup] = QStringLiteral("(none)");
        grouping.labels = labels;
        return grouping;
    }
    std::vector<double> values;
    values.reserve(rows.size());
    for (const qint32 row : rows) {
        const double value = column.number(row);
        if (!std::isnan(value))
            values.push_back(value);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (const double value : values)
        grouping.labels.append(QString::number(value, 'g', 15));
    grouping.labels.append(QStringLiteral("(none)"));
    grouping.numericValues = std::move(values);
    return grouping;
}

} // namespace

qint32 LaneLayout::groupAt(qint64 slot) const
{
    if (m_groups.empty() || slot < 0 || slot >= slotCount())
        return -1;
    const auto it = std::upper_bound(m_groups.begin(), m_groups.end(), slot,
                                     [](qint64 s, const LaneGroup &group) { return s < group.headerSlot; });
    return qint32(it - m_groups.begin()) - 1;
}

qint64 LaneLayout::requestLanesBefore(qint64 slot) const
{
    slot = std::clamp<qint64>(slot, 0, slotCount());
    const auto headers = std::lower_bound(m_groups.begin(), m_groups.end(), slot,
                                          [](const LaneGroup &group, qint64 s) { return group.headerSlot < s; });
    return slot - qint64(headers - m_groups.begin());
}

LaneLayout LaneLayout::build(const RequestTable &table, const LaneOrder &order, const RowSet *scope,
                             const std::atomic<bool> *cancelled)
{
    LaneLayout layout;
    layout.m_order = order;
    std::vector<qint32> rows;
    if (scope) {
        rows.assign(scope->begin(), scope->end());
    } else {
        rows.resize(size_t(table.rowCount()));
        std::iota(rows.begin(), rows.end(), 0);
    }
    const Grouping grouping = makeGrouping(table, order.groupBy, rows);

    // Sort key per row.
    const AttributeColumn *keyColumn
        = order.key == LaneOrder::Key::Attribute ? table.attribute(order.attribute) : nullptr;
    std::vector<qint32> keyRanks;
    if (keyColumn && !keyColumn->isNumeric())
        keyRanks = codeRanks(*keyColumn);
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<SortEntry> entries(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        if ((i & 0xFFFF) == 0 && isCancelled(cancelled))
            return {};
        const qint32 row = rows[i];
        SortEntry &entry = entries[i];
        entry.row = row;
        entry.group = grouping.groupOf(row);
        entry.origin = originOf(table, row);
        switch (order.key) {
        case LaneOrder::Key::Arrival:
            entry.key = entry.origin == kNoTime ? nan : double(entry.origin);
            break;
        case LaneOrder::Key::Metric:
            entry.key = metricValueMs(table, row, order.metric, order.boundary);
            break;
        case LaneOrder::Key::Attribute:
            if (!keyColumn)
                entry.key = nan;
            else if (keyColumn->isNumeric())
                entry.key = keyColumn->number(row);
            else
                entry.key = keyColumn->code(row) == 0 ? nan : double(keyRanks[keyColumn->code(row)]);
            break;
        }
        if (order.descending && !std::isnan(entry.key))
            entry.key = -entry.key;
    }
    std::sort(entries.begin(), entries.end(), [](const SortEntry &a, const SortEntry &b) {
        if (a.group != b.group)
            return a.group < b.group;
        const bool aMissing = std::isnan(a.key);
        const bool bMissing = std::isnan(b.key);
        if (aMissing != bMissing)
            return bMissing;
        if (!aMissing && a.key != b.key)
            return a.key < b.key;
        if (a.origin != b.origin)
            return a.origin < b.origin;
        return a.row < b.row;
    });
    if (isCancelled(cancelled))
        return {};

    // Slots: one header per non-empty group when grouped, then its lanes.
    const bool grouped = grouping.column != nullptr;
    layout.m_rowSlots.assign(size_t(table.rowCount()), -1);
    layout.m_slotRows.reserve(entries.size() + size_t(grouped ? grouping.labels.size() : 0));
    for (size_t i = 0; i < entries.size();) {
        size_t end = i;
        while (end < entries.size() && entries[end].group == entries[i].group)
            ++end;
        if (grouped) {
            layout.m_groups.push_back(
                {grouping.labels[entries[i].group], qint64(layout.m_slotRows.size()), qint64(end - i)});
            layout.m_slotRows.push_back(-1);
        }
        for (; i < end; ++i) {
            layout.m_rowSlots[size_t(entries[i].row)] = qint64(layout.m_slotRows.size());
            layout.m_slotRows.push_back(entries[i].row);
        }
    }
    layout.m_requestCount = qint64(entries.size());

    // Pack the stamps in slot order.
    const size_t slotTotal = layout.m_slotRows.size();
    layout.m_origins.assign(slotTotal, kNoTime);
    layout.m_offsets.assign(slotTotal * kStampCount, kMissing);
    qint64 begin = std::numeric_limits<qint64>::max();
    qint64 end = std::numeric_limits<qint64>::min();
    qint64 longest = 0;
    for (size_t slot = 0; slot < slotTotal; ++slot) {
        if ((slot & 0xFFFF) == 0 && isCancelled(cancelled))
            return {};
        const qint32 row = layout.m_slotRows[slot];
        if (row < 0)
            continue;
        const qint64 origin = originOf(table, row);
        layout.m_origins[slot] = origin;
        if (origin == kNoTime)
            continue;
        float *offsets = layout.m_offsets.data() + slot * kStampCount;
        for (int s = 0; s < kStampCount; ++s) {
            const qint64 t = table.stamp(row, static_cast<Stamp>(s));
            if (t == kNoTime)
                continue;
            offsets[s] = float(double(t - origin) / 1e6);
            begin = qMin(begin, t);
            end = qMax(end, t);
            longest = qMax(longest, t - origin);
        }
    }
    if (begin <= end) {
        layout.m_traceBegin = begin;
        layout.m_traceEnd = end;
    }
    layout.m_longestLane = longest;
    return layout;
}
