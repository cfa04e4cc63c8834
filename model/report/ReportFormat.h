#pragma once

#include <QString>

// Number formats the class and exceedance reports share, so the terminal,
// the JSON and the GUI tables spell a figure the same way.
namespace ReportFormat {

// 0.95 -> "p95", 0.999 -> "p99.9".
QString percentileLabel(double q);
// Fixed decimals; "n/a" for NaN.
QString fixed(double value, int decimals = 1);
// 0.0909 -> "9.1%"; 1 -> "100%"; 0 -> "0%".
QString share(double fraction);
// "too few requests"
QString tooFew();

} // namespace ReportFormat
