#pragma once

#include <QString>

#include <vector>

class QAbstractItemView;

// Copying tables out of the tool: the selection (or the whole table when
// nothing is selected) as TSV for spreadsheets or as a Markdown table for
// notes and reviews, with the header row. Units move into the header: a
// column whose cells all end in the same unit ("12.5 ms") is copied as
// "TTFT (client) [ms]" over "12.5"; a model can also name a column's unit
// through kUnitRole on its horizontal header.
namespace TableCopy {

// Qt::UserRole + 0x7E1; answered by headerData(section, Horizontal, kUnitRole).
inline constexpr int kUnitRole = 0x0100 + 0x7E1;

struct Grid
{
    std::vector<QString> header;
    std::vector<std::vector<QString>> rows;
};

// The cells that would be copied, units already moved into the header.
Grid grid(const QAbstractItemView *view);
QString tsv(const Grid &grid);
QString markdown(const Grid &grid);

// Ctrl+C copies TSV (instead of the one current cell); the context menu has
// "Copy" and "Copy as Markdown".
void install(QAbstractItemView *view);

} // namespace TableCopy
