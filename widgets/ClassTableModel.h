#pragma once

#include "analysis/classes/ClassTable.h"

#include <QAbstractTableModel>

// The class table as rows: one per class cell, then the "overall" row. The
// first columns name the class (one per dimension); then requests, share of
// requests, n, p50/p90/p95/p99 with their 95% intervals (or "too few
// requests"), requests above the overall threshold and share of that set.
// A thin adapter over a ClassTable value computed in the model.
class ClassTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { // after the dimension columns
        Requests,
        RequestShare,
        N,
        P50,
        P90,
        P95,
        P99,
        AboveThreshold,
        ExceedanceShare,
        FixedColumnCount
    };
    enum Roles {
        SortRole = Qt::UserRole, // raw number (NaN for "too few requests")
        CellRole,                // index into ClassTable::cells; -1 for the overall row
    };

    explicit ClassTableModel(QObject *parent = nullptr);

    void setTable(ClassTable table);
    const ClassTable &table() const { return m_table; }

    int dimensionColumns() const { return int(m_table.dimensions.size()); }
    // Model column of a fixed column.
    int column(Column column) const { return dimensionColumns() + int(column); }
    // Index into ClassTable::cells of a model row; -1 for the overall row.
    int cellOfRow(int row) const { return row < int(m_table.cells.size()) ? row : -1; }
    int overallRow() const { return int(m_table.cells.size()); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "185.0 [182.0–188.0]" (the unit is in the header), or "too few requests".
    static QString quantileText(const QuantileEstimate &estimate, Metric metric);

private:
    const ClassCell &cellAt(int row) const;
    QVariant display(const ClassCell &cell, int column) const;
    QVariant sortValue(const ClassCell &cell, int column) const;
    QString toolTip(const ClassCell &cell, int column) const;

    ClassTable m_table;
};
