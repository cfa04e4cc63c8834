#pragma once

#include "FigureExport.h"

#include <vector>

class MainWindow;

// Every view of the main window as an exportable figure, each with the
// caption that names its coordinates (boundary, metric, percentile, n,
// slice, trace). The views stay unaware of exporting; this reads what they
// show through their public accessors and the shared ViewState.
namespace ViewFigures {

std::vector<FigureSource> all(MainWindow *window);

} // namespace ViewFigures
