#pragma once

class QCustomPlot;
class QPalette;

// Colours a QCustomPlot from a widget palette (background, every axis and its
// grid, the legend, a title element in the top row), so every plot follows
// light and dark themes the same way.
namespace PlotPalette {

void apply(QCustomPlot *plot, const QPalette &palette);

} // namespace PlotPalette
