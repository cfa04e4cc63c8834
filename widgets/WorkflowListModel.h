#pragma once

#include "store/RowSet.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

class TraceStore;

// The workflows of the loaded trace in the current scope, one row each:
// trace id, type, span count, E2E and TTFT, and whether it is in the slow
// (exceedance) set. Sorting is done here on the raw values (a stable sort of
// indices), so 100,000 workflows sort at once without a proxy. Display role
// formatted, SortRole raw.
class WorkflowListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Slow, E2e, Ttft, Spans, Type, Workflow, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int WorkflowRole = Qt::UserRole + 1; // index into store()->workflows
    static constexpr int RequestRowRole = Qt::UserRole + 2;

    explicit WorkflowListModel(QObject *parent = nullptr);

    // `scope`: the request rows in scope (every row when `all`).
    void setStore(std::shared_ptr<const TraceStore> store, const RowSet &scope, bool all);
    void setSlow(RowSet members);

    qint32 workflowAt(int row) const { return m_workflows[size_t(row)]; }
    qint32 requestRowAt(int row) const;
    int rowOfWorkflow(qint32 workflow) const;
    bool isSlow(int row) const { return m_slow.contains(requestRowAt(row)); }
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    double valueMs(qint32 workflow, Column column) const;
    void applySort();

    std::shared_ptr<const TraceStore> m_store;
    std::vector<qint32> m_workflows; // in display order
    std::vector<int> m_rowOf;        // per workflow, -1 when out of scope
    RowSet m_slow;
    int m_sortColumn = E2e;
    Qt::SortOrder m_sortOrder = Qt::DescendingOrder;
};
