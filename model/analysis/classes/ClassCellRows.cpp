#include "ClassCellRows.h"

#include "ClassColumn.h"
#include "ClassTable.h"
#include "analysis/requests/RequestSlice.h"

std::vector<std::vector<qint32>> classCellRows(const ClassTable &table, std::span<const ClassColumn> columns,
                                               const RequestSlice &slice)
{
    std::vector<std::vector<qint32>> rows(table.cells.size());
    if (columns.empty() || columns.size() > 2 || !table.error.isEmpty())
        return rows;
    const size_t second = columns.size() == 2 ? size_t(columns[1].classCount()) : 1;
    // Dense (code, code) -> cell index; the table refuses splits too large for it.
    std::vector<qint32> cellOf(size_t(columns[0].classCount()) * second, -1);
    for (size_t i = 0; i < table.cells.size(); ++i) {
        const auto &codes = table.cells[i].codes;
        cellOf[size_t(codes[0]) * second + size_t(qMax(codes[1], 0))] = qint32(i);
        rows[i].reserve(size_t(table.cells[i].requests));
    }
    const quint32 *codesA = columns[0].codes.data();
    const quint32 *codesB = columns.size() == 2 ? columns[1].codes.data() : nullptr;
    const auto &mask = slice.mask();
    for (size_t row = 0; row < mask.size(); ++row) {
        if (!mask[row])
            continue;
        const qint32 cell = cellOf[size_t(codesA[row]) * second + (codesB ? size_t(codesB[row]) : 0)];
        if (cell >= 0)
            rows[size_t(cell)].push_back(qint32(row));
    }
    return rows;
}
