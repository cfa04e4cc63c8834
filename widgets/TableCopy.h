#pragma once

#include <QString>

#include <vector>

class QAbstractItemView;

// Copying tables out of the tool: the selection (or the whole table when
// nothing is selected) as TSV for spreadsheets or as a Markdown table for
// notes and reviews, with the header row; or written to a file as CSV, TSV
// or Markdown. Units move into the header: a
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
// RFC 4180: a field holding a comma, a quote or a line break is quoted,
// quotes doubled; lines end in CRLF. Numbers lose their digit grouping
// ("2,000" is written 2000).
QString csv(const Grid &grid);

// Trace text is untrusted: a cell a spreadsheet would run as a formula
// (first character = + - @, and not a number) gets a leading apostrophe,
// in TSV and CSV alike.
QString spreadsheetSafe(const QString &cell);

enum class FileFormat { Csv, Tsv, Markdown };
// By suffix: .csv, .tsv/.tab/.txt, .md/.markdown.
bool formatOf(const QString &path, FileFormat *format);
bool write(const Grid &grid, const QString &path, QString *error);

// Ctrl+C copies TSV (instead of the one current cell); the context menu has
// "Copy", "Copy as Markdown" and "Export Table..." (CSV, TSV or Markdown).
void install(QAbstractItemView *view);

} // namespace TableCopy
