#include "WorkflowListModel.h"

#include "store/TraceStore.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

WorkflowListModel::WorkflowListModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void WorkflowListModel::setStore(std::shared_ptr<const TraceStore> store, const RowSet &scope, bool all)
{
    beginResetModel();
    m_store = std::move(store);
    m_workflows.clear();
    m_rowOf.clear();
    if (m_store) {
        const auto &workflows = m_store->workflows;
        for (qint32 w = 0; w < qint32(workflows.rowCount()); ++w) {
            const qint32 row = workflows.requestRow[size_t(w)];
            if (all || scope.contains(row))
                m_workflows.push_back(w);
        }
        m_rowOf.assign(size_t(workflows.rowCount()), -1);
    }
    applySort();
    endResetModel();
}

void WorkflowListModel::setSlow(RowSet members)
{
    m_slow = std::move(members);
    if (!m_workflows.empty())
        emit dataChanged(index(0, Slow), index(rowCount() - 1, Slow));
}

qint32 WorkflowListModel::requestRowAt(int row) const
{
    return m_store->workflows.requestRow[size_t(m_workflows[size_t(row)])];
}

int WorkflowListModel::rowOfWorkflow(qint32 workflow) const
{
    return workflow >= 0 && size_t(workflow) < m_rowOf.size() ? m_rowOf[size_t(workflow)] : -1;
}

int WorkflowListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_workflows.size());
}

int WorkflowListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double WorkflowListModel::valueMs(qint32 workflow, Column column) const
{
    const qint32 row = m_store->workflows.requestRow[size_t(workflow)];
    if (row < 0)
        return std::nan("");
    const auto &requests = m_store->requests;
    const qint64 send = requests.stamp(row, Stamp::ClientSend);
    const qint64 end = requests.stamp(row, column == E2e ? Stamp::LastTokenClient : Stamp::FirstTokenClient);
    return send == kNoTime || end == kNoTime ? std::nan("") : double(end - send) / 1e6;
}

QVariant WorkflowListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const qint32 workflow = m_workflows[size_t(index.row())];
    const qint32 row = m_store->workflows.requestRow[size_t(workflow)];
    const auto column = Column(index.column());
    if (role == WorkflowRole)
        return workflow;
    if (role == RequestRowRole)
        return row;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(column == Workflow || column == Type ? Qt::AlignLeft | Qt::AlignVCenter
                                                                        : Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == Slow)
        return m_slow.contains(row) ? tr("In the slow set (the Exceedance dock's set)") : QVariant();
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    switch (column) {
    case Slow:
        return display ? (m_slow.contains(row) ? QStringLiteral("\u25b2") : QString()) : QVariant(m_slow.contains(row));
    case Workflow:
        return m_store->workflows.traceIdText(workflow);
    case Type: {
        const auto *type = m_store->requests.attribute(QStringLiteral("workflow_type"));
        return type && row >= 0 ? type->text(row) : QString();
    }
    case Spans:
        return m_store->workflows.spanCount[size_t(workflow)];
    case E2e:
    case Ttft: {
        const double ms = valueMs(workflow, column);
        if (!display)
            return ms;
        // Sub-millisecond workflows (µs spans) keep three decimals, not "0.0".
        const int decimals = ms != 0.0 && std::abs(ms) < 1.0 ? 3 : 1;
        return std::isnan(ms) ? QStringLiteral("\u2013") : QLocale().toString(ms, 'f', decimals);
    }
    case ColumnCount:
        break;
    }
    return {};
}

QVariant WorkflowListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == Slow)
        return tr("\u25b2: in the slow set (above the Exceedance dock's percentile)");
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Slow:
        return QStringLiteral("\u25b2");
    case Workflow:
        return tr("Workflow");
    case Type:
        return tr("Type");
    case Spans:
        return tr("Spans");
    case E2e:
        return tr("E2E ms");
    case Ttft:
        return tr("TTFT ms");
    case ColumnCount:
        break;
    }
    return {};
}

void WorkflowListModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<qint32> workflows;
    for (const QModelIndex &index : before)
        workflows.push_back(m_workflows[size_t(index.row())]);
    m_sortColumn = column;
    m_sortOrder = order;
    applySort();
    QModelIndexList after;
    for (size_t i = 0; i < workflows.size(); ++i)
        after.append(index(m_rowOf[size_t(workflows[i])], before[qsizetype(i)].column()));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void WorkflowListModel::applySort()
{
    if (m_store && !m_workflows.empty()) {
        // Missing values last in both directions; ties keep workflow order.
        const auto column = Column(m_sortColumn);
        const bool descending = m_sortOrder == Qt::DescendingOrder;
        if (column == E2e || column == Ttft || column == Spans) {
            std::vector<double> key(m_store->workflows.rowCount(), 0.0);
            for (const qint32 w : m_workflows)
                key[size_t(w)] = column == Spans ? double(m_store->workflows.spanCount[size_t(w)]) : valueMs(w, column);
            std::stable_sort(m_workflows.begin(), m_workflows.end(), [&](qint32 a, qint32 b) {
                const double x = key[size_t(a)];
                const double y = key[size_t(b)];
                if (std::isnan(x) || std::isnan(y))
                    return !std::isnan(x) && std::isnan(y);
                return descending ? x > y : x < y;
            });
        } else {
            std::vector<QString> key(m_store->workflows.rowCount());
            for (const qint32 w : m_workflows) {
                const qint32 row = m_store->workflows.requestRow[size_t(w)];
                if (column == Workflow)
                    key[size_t(w)] = m_store->workflows.traceIdText(w);
                else if (column == Type) {
                    const auto *type = m_store->requests.attribute(QStringLiteral("workflow_type"));
                    key[size_t(w)] = type && row >= 0 ? type->text(row) : QString();
                } else {
                    key[size_t(w)] = m_slow.contains(row) ? QStringLiteral("1") : QStringLiteral("0");
                }
            }
            std::stable_sort(m_workflows.begin(), m_workflows.end(), [&](qint32 a, qint32 b) {
                return descending ? key[size_t(a)] > key[size_t(b)] : key[size_t(a)] < key[size_t(b)];
            });
        }
    }
    std::fill(m_rowOf.begin(), m_rowOf.end(), -1);
    for (size_t i = 0; i < m_workflows.size(); ++i)
        m_rowOf[size_t(m_workflows[i])] = int(i);
}
