#include "MarkLabelLayout.h"

#include <algorithm>

namespace MarkLabelLayout {

namespace {

QRectF besideLine(const Mark &mark, bool right, double top)
{
    const double x = right ? mark.lineX + kGap : mark.lineX - kGap - mark.width;
    return QRectF(x, top, mark.width, 1.0);
}

int crossings(const QRectF &box, const std::vector<Mark> &marks, size_t self)
{
    int n = 0;
    for (size_t i = 0; i < marks.size(); ++i)
        n += i != self && marks[i].lineX > box.left() && marks[i].lineX < box.right();
    return n;
}

bool overlapsRow(const QRectF &box, int row, const std::vector<Placement> &placed)
{
    return std::any_of(placed.begin(), placed.end(), [&](const Placement &other) {
        return other.row == row && box.left() < other.rect.right() + kGap && other.rect.left() < box.right() + kGap;
    });
}

} // namespace

std::vector<Placement> place(const std::vector<Mark> &marks, double plotLeft, double plotRight, double top,
                             double rowHeight, int rows)
{
    rows = std::max(1, rows);
    std::vector<Placement> placed;
    for (size_t i = 0; i < marks.size(); ++i) {
        // The sides that fit inside the plot, fewer crossed lines first.
        struct Side
        {
            bool rightOfLine;
            QRectF box;
            int crossed;
        };
        std::vector<Side> sides;
        for (const bool rightOfLine : {true, false}) {
            const QRectF box = besideLine(marks[i], rightOfLine, top);
            if (box.left() >= plotLeft && box.right() <= plotRight)
                sides.push_back({rightOfLine, box, crossings(box, marks, i)});
        }
        if (sides.empty()) {
            // Wider than either side allows: as far in as it goes.
            const bool rightOfLine = marks[i].lineX < (plotLeft + plotRight) / 2.0;
            QRectF box = besideLine(marks[i], rightOfLine, top);
            box.moveLeft(std::clamp(box.left(), plotLeft, std::max(plotLeft, plotRight - box.width())));
            sides.push_back({rightOfLine, box, crossings(box, marks, i)});
        }
        std::stable_sort(sides.begin(), sides.end(),
                         [](const Side &a, const Side &b) { return a.crossed < b.crossed; });
        Placement chosen;
        bool found = false;
        for (int row = 0; row < rows && !found; ++row) {
            for (const Side &side : sides) {
                if (!overlapsRow(side.box, row, placed)) {
                    chosen = {side.box, row, side.rightOfLine, side.crossed};
                    found = true;
                    break;
                }
            }
        }
        if (!found) // every row taken: the last row, on the better side
            chosen = {sides.front().box, rows - 1, sides.front().rightOfLine, sides.front().crossed};
        chosen.rect.moveTop(top + chosen.row * rowHeight);
        chosen.rect.setHeight(rowHeight);
        placed.push_back(chosen);
    }
    return placed;
}

} // namespace MarkLabelLayout
