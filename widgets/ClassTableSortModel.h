#pragma once

#include <QSortFilterProxyModel>

// Sorts the class table by any column's raw value (ClassTableModel::SortRole)
// while the overall row stays last, whichever the order, and "too few
// requests" (NaN) sorts after every number.
class ClassTableSortModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ClassTableSortModel(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};
