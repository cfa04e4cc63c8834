#include "ClassTableSortModel.h"

#include "ClassTableModel.h"

#include <cmath>

ClassTableSortModel::ClassTableSortModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ClassTableModel::SortRole);
}

bool ClassTableSortModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    const bool leftOverall = left.data(ClassTableModel::CellRole).toInt() < 0;
    const bool rightOverall = right.data(ClassTableModel::CellRole).toInt() < 0;
    // The view reverses the result for a descending sort: answer so that
    // the overall row ends up last either way.
    if (leftOverall != rightOverall)
        return leftOverall ? !ascending : ascending;
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    if (a.typeId() == QMetaType::QString || b.typeId() == QMetaType::QString)
        return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
    const double x = a.toDouble();
    const double y = b.toDouble();
    if (std::isnan(x) || std::isnan(y)) {
        // "Too few requests" after every number, in either order.
        if (std::isnan(x) == std::isnan(y))
            return false; // a stable sort keeps the table order
        return std::isnan(y) ? ascending : !ascending;
    }
    return x < y;
}
