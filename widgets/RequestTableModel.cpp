#include "RequestTableModel.h"

#include "RequestText.h"
#include "TableColumns.h"
#include "analysis/requests/Metric.h"
#include "store/TraceStore.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

RequestTableModel::RequestTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

RequestTableModel::~RequestTableModel() = default;

void RequestTableModel::setStore(std::shared_ptr<const TraceStore> store)
{
    beginResetModel();
    m_store = std::move(store);
    m_columns.clear();
    m_rows.clear();
    m_tableRows.clear();
    if (m_store) {
        const RequestTable &table = m_store->requests;
        m_columns.push_back({RequestColumn::Kind::Id});
        for (size_t a = 0; a < table.attributes().size(); ++a)
            m_columns.push_back({RequestColumn::Kind::Attribute, qsizetype(a)});
        m_columns.push_back({RequestColumn::Kind::PromptTokens});
        m_columns.push_back({RequestColumn::Kind::OutputTokens});
        // The stream figures only where the trace has per-token times.
        const bool tokenTimes = !table.clientTokens().isEmpty() || !table.serverTokens().isEmpty();
        for (const Metric metric : allMetrics()) {
            if (tokenTimes || !isStreamMetric(metric))
                m_columns.push_back({RequestColumn::Kind::Metric, -1, metric});
        }
        m_rows.resize(size_t(table.rowCount()));
        std::iota(m_rows.begin(), m_rows.end(), 0);
        m_tableRows = m_rows;
        // The trace's span bounds every duration in it: the widest cell of
        // a time column, wherever that request sits (one pass, a few ms at
        // a million rows).
        qint64 first = std::numeric_limits<qint64>::max();
        qint64 last = std::numeric_limits<qint64>::min();
        for (int s = 0; s < kStampCount; ++s) {
            for (const qint64 t : table.stampColumn(static_cast<Stamp>(s))) {
                if (t == kNoTime)
                    continue;
                first = std::min(first, t);
                last = std::max(last, t);
            }
        }
        m_longestMs = last > first ? double(last - first) / 1e6 : 0.0;
    }
    endResetModel();
}

void RequestTableModel::setBoundary(Boundary boundary)
{
    if (boundary == m_boundary)
        return;
    m_boundary = boundary;
    for (int c = 0; c < columnCount(); ++c) {
        if (m_columns[size_t(c)].kind == RequestColumn::Kind::Metric && m_columns[size_t(c)].metric == Metric::Ttft) {
            emit headerDataChanged(Qt::Horizontal, c, c);
            if (rowCount() > 0)
                emit dataChanged(index(0, c), index(rowCount() - 1, c));
        }
    }
}

void RequestTableModel::setOrder(std::vector<qint32> rows)
{
    const bool sameSet = rows.size() == m_rows.size() && std::all_of(rows.begin(), rows.end(), [this](qint32 row) {
                             return row >= 0 && size_t(row) < m_tableRows.size() && m_tableRows[size_t(row)] >= 0;
                         });
    if (!sameSet) {
        beginResetModel();
        m_rows = std::move(rows);
        std::fill(m_tableRows.begin(), m_tableRows.end(), -1);
        for (size_t i = 0; i < m_rows.size(); ++i)
            m_tableRows[size_t(m_rows[i])] = qint32(i);
        endResetModel();
        return;
    }
    // Same requests, new order: a permutation, so persistent indexes move
    // with their requests instead of being reset.
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<std::pair<qint32, int>> requests; // (store row, column) of each
    requests.reserve(size_t(before.size()));
    for (const QModelIndex &old : before)
        requests.emplace_back(m_rows[size_t(old.row())], old.column());
    m_rows = std::move(rows);
    for (size_t i = 0; i < m_rows.size(); ++i)
        m_tableRows[size_t(m_rows[i])] = qint32(i);
    QModelIndexList after;
    after.reserve(before.size());
    for (const auto &[storeRow, column] : requests)
        after.append(index(m_tableRows[size_t(storeRow)], column));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

int RequestTableModel::tableRowOf(qint32 storeRow) const
{
    return storeRow >= 0 && size_t(storeRow) < m_tableRows.size() ? m_tableRows[size_t(storeRow)] : -1;
}

int RequestTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RequestTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant RequestTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_store)
        return {};
    const RequestTable &table = m_store->requests;
    const qint32 row = m_rows[size_t(index.row())];
    const RequestColumn &column = m_columns[size_t(index.column())];
    if (role == RowRole)
        return row;
    if (role == Qt::TextAlignmentRole) {
        const bool text = column.kind == RequestColumn::Kind::Id
            || (column.kind == RequestColumn::Kind::Attribute
                && !table.attributes()[size_t(column.attribute)].isNumeric());
        return QVariant::fromValue(
            Qt::Alignment(text ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    }
    if (role != Qt::DisplayRole && role != RawRole)
        return {};
    const bool raw = role == RawRole;
    switch (column.kind) {
    case RequestColumn::Kind::Id:
        return table.idText(row);
    case RequestColumn::Kind::Attribute: {
        const AttributeColumn &attribute = table.attributes()[size_t(column.attribute)];
        if (raw && attribute.isNumeric())
            return attribute.number(row);
        return attribute.text(row);
    }
    case RequestColumn::Kind::PromptTokens:
        return raw ? QVariant(double(table.promptTokens(row))) : QVariant(QLocale().toString(table.promptTokens(row)));
    case RequestColumn::Kind::OutputTokens:
        return raw ? QVariant(double(table.outputTokens(row))) : QVariant(QLocale().toString(table.outputTokens(row)));
    case RequestColumn::Kind::Metric: {
        const double ms = metricValueMs(table, row, column.metric, m_boundary);
        if (raw)
            return ms;
        if (std::isnan(ms))
            return QStringLiteral("\u2014");
        // One unit per column (a column of 9667.7 ms and 12.35 s reads wrong).
        return column.metric == Metric::Itl ? RequestText::perToken(ms) : RequestText::inMilliseconds(ms);
    }
    }
    return {};
}

QVariant RequestTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const RequestColumn &column = m_columns[size_t(section)];
    if (role == TableColumns::kWidestTextRole) {
        if (column.kind != RequestColumn::Kind::Metric)
            return {};
        return column.metric == Metric::Itl ? RequestText::perToken(m_longestMs)
                                            : RequestText::inMilliseconds(m_longestMs);
    }
    if (role == Qt::ToolTipRole && column.kind == RequestColumn::Kind::Metric && column.metric == Metric::Ttft)
        return tr("TTFT at the %1 boundary: %2").arg(boundaryKey(m_boundary), boundarySpan(m_boundary));
    if (role != Qt::DisplayRole)
        return {};
    switch (column.kind) {
    case RequestColumn::Kind::Id:
        return tr("Request");
    case RequestColumn::Kind::Attribute:
        return m_store->requests.attributes()[size_t(column.attribute)].name();
    case RequestColumn::Kind::PromptTokens:
        return tr("Prompt tokens");
    case RequestColumn::Kind::OutputTokens:
        return tr("Output tokens");
    case RequestColumn::Kind::Metric:
        if (column.metric == Metric::Ttft)
            return tr("TTFT (%1)").arg(boundaryKey(m_boundary));
        return metricLabel(column.metric);
    }
    return {};
}
