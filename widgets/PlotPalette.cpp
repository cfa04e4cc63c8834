#include "PlotPalette.h"

#include <QPalette>

#include <qcustomplot.h>

namespace PlotPalette {

void apply(QCustomPlot *plot, const QPalette &palette)
{
    plot->setBackground(palette.color(QPalette::Base));
    plot->axisRect()->setBackground(palette.color(QPalette::Base));
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(40);
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1.0, Qt::DotLine));
    }
    plot->legend->setBrush(palette.color(QPalette::Base));
    plot->legend->setTextColor(text);
    plot->legend->setBorderPen(QPen(palette.color(QPalette::Mid)));
    if (plot->plotLayout()->elementCount() > 0) {
        if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)))
            title->setTextColor(text);
    }
}

} // namespace PlotPalette
