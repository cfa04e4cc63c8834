#pragma once

#include "SwimlaneCoordinates.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

// Tick labels for an axis whose data are milliseconds, read in the unit
// the axis range reads best in (µs, ms, s or min): a 27-minute E2E axis says
// "5 10 15 20 25 min", never "1e+06 ms". Ticks fall on round numbers of that
// unit. Data, marks and SLO lines stay in ms; only the labels change.
// Include only from files built with -UQT_NO_FOREACH (qcustomplot.h).
namespace MillisecondTicker {

// The unit for an axis showing values up to `maxMs`.
inline SwimlaneCoordinates::TimeUnit unitFor(double maxMs)
{
    return SwimlaneCoordinates::unitForSpan(qint64(std::min(std::abs(maxMs), 9.0e12) * 1e6));
}

class Linear : public QCPAxisTicker
{
public:
    explicit Linear(const SwimlaneCoordinates::TimeUnit &unit)
        : m_msPerUnit(double(unit.ns) / 1e6)
    { }

protected:
    double getTickStep(const QCPRange &range) override
    {
        return QCPAxisTicker::getTickStep(QCPRange(range.lower / m_msPerUnit, range.upper / m_msPerUnit)) * m_msPerUnit;
    }
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        return QCPAxisTicker::getTickLabel(tick / m_msPerUnit, locale, formatChar, precision);
    }

private:
    double m_msPerUnit = 1.0;
};

class Logarithmic : public QCPAxisTickerLog
{
public:
    explicit Logarithmic(const SwimlaneCoordinates::TimeUnit &unit)
        : m_msPerUnit(double(unit.ns) / 1e6)
    { }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        return QCPAxisTickerLog::getTickLabel(tick / m_msPerUnit, locale, formatChar, precision);
    }

private:
    double m_msPerUnit = 1.0;
};

// Puts the matching ticker on `axis` for data up to `maxMs` and returns the
// unit's symbol for the axis label.
inline QString apply(QCPAxis *axis, double maxMs, bool logarithmic)
{
    const SwimlaneCoordinates::TimeUnit unit = unitFor(maxMs);
    if (logarithmic)
        axis->setTicker(QSharedPointer<Logarithmic>::create(unit));
    else
        axis->setTicker(QSharedPointer<Linear>::create(unit));
    return unit.symbol;
}

} // namespace MillisecondTicker
