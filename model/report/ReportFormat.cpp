#include "ReportFormat.h"

#include <cmath>

namespace ReportFormat {

QString percentileLabel(double q)
{
    return QStringLiteral("p") + QString::number(q * 100.0, 'g', 4);
}

QString fixed(double value, int decimals)
{
    return std::isnan(value) ? QStringLiteral("n/a") : QString::number(value, 'f', decimals);
}

QString share(double fraction)
{
    if (std::isnan(fraction))
        return QStringLiteral("n/a");
    // Whole 0% and 100% read as "none" and "all"; rounding must not turn
    // 99.99...% into "100.0%" or -0.0 into "-0.0%".
    const QString text = QString::number(fraction * 100.0, 'f', 1);
    if (text == QStringLiteral("100.0") || text == QStringLiteral("0.0") || text == QStringLiteral("-0.0"))
        return (text == QStringLiteral("100.0") ? QStringLiteral("100") : QStringLiteral("0")) + QLatin1Char('%');
    return text + QLatin1Char('%');
}

QString tooFew()
{
    return QStringLiteral("too few requests");
}

} // namespace ReportFormat
