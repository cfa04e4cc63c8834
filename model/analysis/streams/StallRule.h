#pragma once

#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <cmath>

// When a gap between two stream events is a stall: at least `medianFactor`
// times the request's own median gap and at least `minimumMs`. Relative to
// the request, so a slow but steady stream is not all stalls; with a floor,
// so a 30 ms hiccup in a 5 ms stream is not one either.
struct StallRule
{
    double medianFactor = 4.0;
    double minimumMs = 250.0;

    qint64 thresholdNs(double medianGapNs) const
    {
        const double relative = medianFactor * medianGapNs;
        return qint64(std::ceil(std::max(relative, minimumMs * 1e6)));
    }
    bool isStall(qint64 gapNs, double medianGapNs) const { return gapNs >= thresholdNs(medianGapNs); }

    QString describe() const
    {
        return QStringLiteral("gap \u2265 %1\u00d7 the request's median gap and \u2265 %2 ms")
            .arg(medianFactor, 0, 'g', 4)
            .arg(minimumMs, 0, 'g', 6);
    }
    friend bool operator==(const StallRule &, const StallRule &) = default;
};
