#pragma once

#include <QString>

struct ClassTable;
struct ClassCell;
struct QuantileEstimate;

// The class table as the terminal shows it: coordinates, one row per class
// and an overall row, the small-cell note and the mixture warning.
namespace ClassTableText {

// `slice` says which requests the table covers ("all requests", "region = eu").
QString table(const ClassTable &table, const QString &slice);

// "55.5 [45.0–66.0]", or "too few requests" when the interval cannot be formed.
QString estimate(const QuantileEstimate &estimate, int decimals = 1);

} // namespace ClassTableText
