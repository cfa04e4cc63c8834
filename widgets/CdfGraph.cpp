#include "CdfGraph.h"

#include <qcustomplot.h>

#include <cmath>

namespace CdfGraph {

QCPGraph *add(QCustomPlot *plot, const std::vector<CdfPoint> &cdf, const QString &name, const QPen &pen,
              QCPAxis *valueAxis)
{
    QCPGraph *graph = plot->addGraph(plot->xAxis, valueAxis ? valueAxis : plot->yAxis);
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(pen);
    QVector<double> x;
    QVector<double> y;
    x.reserve(qsizetype(cdf.size()));
    y.reserve(qsizetype(cdf.size()));
    for (const CdfPoint &point : cdf) {
        x.append(point.x);
        y.append(point.share);
    }
    graph->setData(x, y, true);
    return graph;
}

void addSloLine(QCustomPlot *plot, double x, const QString &text, const QColor &background)
{
    const QColor red(0xC0, 0x00, 0x20);
    auto *line = new QCPItemStraightLine(plot);
    line->point1->setCoords(x, 0.0);
    line->point2->setCoords(x, 1.0);
    line->setPen(QPen(red, 2.0));
    auto *label = new QCPItemText(plot);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.02);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setPadding(QMargins(4, 1, 4, 1));
    label->setColor(red);
    label->setBrush(background);
    label->setText(text);
}

void fitAndReplot(QCustomPlot *plot, double lo, double hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = 0.0;
        hi = 1.0;
    }
    const double pad = (hi - lo) * 0.03 + 1e-9;
    plot->xAxis->setRange(lo - pad, hi + pad);
    plot->yAxis->setRange(0.0, 1.02);
    plot->legend->setVisible(plot->legend->itemCount() > 0);
    plot->replot();
}

} // namespace CdfGraph
