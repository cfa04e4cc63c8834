#pragma once

#include <QRectF>

#include <vector>

// Where the labels of vertical marks (percentile lines, an SLO) go in a plot:
// beside their own line, on the side that crosses fewer of the other lines
// (right when equal), in the highest row where they overlap no other label,
// and inside the plot. Pure geometry in pixels, so it is tested on its own.
namespace MarkLabelLayout {

struct Mark
{
    double lineX = 0.0; // the mark's line, px
    double width = 0.0; // its label, px
};

struct Placement
{
    QRectF rect; // the label's box
    int row = 0; // 0: the top row
    bool rightOfLine = true;
    int crossings = 0; // other marks' lines under the box
};

inline constexpr double kGap = 3.0; // between a line and its label, and between labels

// `rows` rows of `rowHeight` from `top`; the plot spans [plotLeft, plotRight].
std::vector<Placement> place(const std::vector<Mark> &marks, double plotLeft, double plotRight, double top,
                             double rowHeight, int rows);

} // namespace MarkLabelLayout
