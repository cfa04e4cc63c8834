#pragma once

#include "FigureExport.h"

class QCustomPlot;

// A QCustomPlot as a vector figure: the plot draws itself through its own
// painter into a QPicture that is replayed on the export's painter, so SVG
// and PDF keep lines and text (QWidget::render would embed its pixel buffer).
namespace PlotFigure {

FigurePainter painter(QCustomPlot *plot);
// The plot as a widget, for callers that do not include qcustomplot.h.
QWidget *widget(QCustomPlot *plot);

} // namespace PlotFigure
