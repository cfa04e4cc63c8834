#pragma once

class QTableView;

// Column widths from the header and a sample of rows. QTableView's own
// resizeColumnsToContents() may measure every row, which at a million rows
// blocks the GUI thread for seconds.
namespace TableColumns {

// A model may name the widest text a column can hold (answered by
// headerData(section, Horizontal, kWidestTextRole)): the sample of rows
// need not contain it, yet no cell is cut.
inline constexpr int kWidestTextRole = 0x0100 + 0x7E2;

void fitToSample(QTableView *view, int sampleRows = 32, int maximumWidth = 360);

} // namespace TableColumns
