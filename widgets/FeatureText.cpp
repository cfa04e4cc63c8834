#include "FeatureText.h"

#include "analysis/exceedance/SetComparison.h"

#include <QLocale>

#include <cmath>

namespace FeatureText {

QString withUnit(double value, const QString &unit)
{
    if (std::isnan(value))
        return QStringLiteral("\u2014");
    // Counts and attribute values read whole when they are whole.
    const bool count = unit == QStringLiteral("tokens") || unit.isEmpty();
    int decimals = count && value == std::round(value) ? 0 : 1;
    if (unit == QStringLiteral("ms/token"))
        decimals = 2;
    // Differences that round to nothing read as 0, not -0.0.
    if (std::abs(value) < 0.5 * std::pow(10.0, -decimals))
        value = 0.0;
    const QString number = QLocale().toString(value, 'f', decimals);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

QString share(double share)
{
    if (std::isnan(share))
        return QStringLiteral("\u2014");
    const double percent = std::abs(share) < 0.0005 ? 0.0 : share * 100.0; // no "-0.0%"
    return QLocale().toString(percent, 'f', 1) + QLatin1Char('%');
}

QString separationDetail(const FeatureSeparation &separation)
{
    if (!separation.feature.numeric) {
        for (const auto &value : separation.shares) {
            if (value.value == separation.separatingValue)
                return QStringLiteral("%1: %2 of set vs %3 of rest")
                    .arg(value.value, share(value.setShare), share(value.restShare));
        }
        return {};
    }
    return QStringLiteral("median %1 vs %2")
        .arg(withUnit(separation.setMedian, separation.feature.unit),
             withUnit(separation.restMedian, separation.feature.unit));
}

} // namespace FeatureText
