#pragma once

#include <QColor>

class QCustomPlot;
class QPalette;

// Colours a QCustomPlot from a widget palette (background, every axis and its
// grid, the legend, a title element in the top row), so every plot follows
// light and dark themes the same way.
namespace PlotPalette {

void apply(QCustomPlot *plot, const QPalette &palette);

// `share` of the way from `from` to `to`, channel by channel.
QColor mix(const QColor &from, const QColor &to, double share);
// Histogram bars: a fill and an outline taken from text over background, so
// they read in a dark theme as in a light one (QPalette::Mid is near the
// background in dark themes). Fill about 2:1 against the background, outline
// above 3:1 (WCAG's figure for graphics).
QColor histogramFill(const QPalette &palette);
QColor histogramOutline(const QPalette &palette);
// WCAG contrast ratio of two colours (1 to 21).
double contrast(const QColor &a, const QColor &b);

} // namespace PlotPalette
