#include "PlotFigure.h"

#include <qcustomplot.h>

#include <QPicture>

namespace PlotFigure {

FigurePainter painter(QCustomPlot *plot)
{
    return [plot](QPainter &target, const QSize &size) {
        QPicture picture;
        QCPPainter recorder(&picture);
        plot->toPainter(&recorder, size.width(), size.height());
        recorder.end();
        target.drawPicture(0, 0, picture);
    };
}

QWidget *widget(QCustomPlot *plot)
{
    return plot;
}

} // namespace PlotFigure
