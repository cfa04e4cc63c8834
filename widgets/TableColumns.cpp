#include "TableColumns.h"

#include <QHeaderView>
#include <QTableView>

namespace TableColumns {

void fitToSample(QTableView *view, int sampleRows, int maximumWidth)
{
    const QAbstractItemModel *model = view->model();
    if (!model)
        return;
    const QFontMetrics cells = view->fontMetrics();
    const QFontMetrics header = view->horizontalHeader()->fontMetrics();
    const int rows = qMin(model->rowCount(), sampleRows);
    for (int column = 0; column < model->columnCount(); ++column) {
        // Room for the sort indicator next to the header text.
        int width = header.horizontalAdvance(model->headerData(column, Qt::Horizontal).toString()) + 28;
        for (int row = 0; row < rows; ++row)
            width = qMax(width, cells.horizontalAdvance(model->index(row, column).data().toString()) + 14);
        const QString widest = model->headerData(column, Qt::Horizontal, kWidestTextRole).toString();
        if (!widest.isEmpty())
            width = qMax(width, cells.horizontalAdvance(widest) + 14);
        view->setColumnWidth(column, qMin(width, maximumWidth));
    }
}

} // namespace TableColumns
