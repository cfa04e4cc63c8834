#pragma once

class QTableView;

// Column widths from the header and a sample of rows. QTableView's own
// resizeColumnsToContents() may measure every row, which at a million rows
// blocks the GUI thread for seconds.
namespace TableColumns {

void fitToSample(QTableView *view, int sampleRows = 32, int maximumWidth = 360);

} // namespace TableColumns
