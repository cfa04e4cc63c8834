#pragma once

#include <QtGlobal>

#include <span>
#include <vector>

class RequestSlice;
struct ClassColumn;
struct ClassTable;

// The request rows of each cell of a class table (ascending), so that
// picking a cell becomes a filter without another pass over the trace.
// Rows of the slice whose class has no cell (cannot happen for a table
// computed on the same columns and slice) are left out.
std::vector<std::vector<qint32>> classCellRows(const ClassTable &table, std::span<const ClassColumn> columns,
                                               const RequestSlice &slice);
