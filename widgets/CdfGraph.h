#pragma once

#include "analysis/stats/Distribution.h"

#include <QString>

#include <vector>

class QColor;
class QCPAxis;
class QCPGraph;
class QCustomPlot;
class QPen;

// The two pieces every CDF plot draws (the distribution panel, the class
// CDFs, the before/after comparison): the empirical CDF as a step curve and
// the SLO as a labelled vertical line.
namespace CdfGraph {

// A step curve through `cdf` (x ascending, share 0..1) named for the legend.
// `valueAxis` is the share axis (the plot's y axis unless given). An empty
// `cdf` still gets its (empty) graph and legend entry.
QCPGraph *add(QCustomPlot *plot, const std::vector<CdfPoint> &cdf, const QString &name, const QPen &pen,
              QCPAxis *valueAxis = nullptr);

// A red vertical line at `x` across the whole plot with `text` at its foot,
// on `background` so it reads over the curves.
void addSloLine(QCustomPlot *plot, double x, const QString &text, const QColor &background);

// Values [lo, hi] (infinite when nothing was drawn) across the x axis with
// a 3% margin, shares 0..1 up the y axis, the legend when it has entries;
// then replots.
void fitAndReplot(QCustomPlot *plot, double lo, double hi);

} // namespace CdfGraph
