#pragma once

#include <QString>

#include <vector>

class SvgCanvas;

// A value axis for report figures: a linear or log10 scale from data to
// pixels, "nice" tick values (1-2-5 steps; powers of ten on a log scale)
// and unit-aware labels. Pure: the geometry is tested without drawing.
class SvgAxis
{
public:
    SvgAxis(double minimum, double maximum, double pixelFrom, double pixelTo, bool logScale = false);

    double minimum() const { return m_min; }
    double maximum() const { return m_max; }
    bool isLog() const { return m_log; }
    // Pixel of a value, clamped to the axis.
    double map(double value) const;
    std::vector<double> ticks(int wanted = 6) const;
    // "0", "250", "1.5k", "2M"; `decimals` for small steps.
    static QString label(double value);

    // Rounds a range outward to tick steps (linear) or decades (log).
    static std::pair<double, double> niceRange(double minimum, double maximum, bool logScale);
    static double niceStep(double span, int wanted);

private:
    double m_min = 0.0;
    double m_max = 1.0;
    double m_from = 0.0;
    double m_to = 1.0;
    bool m_log = false;
};

// A plot frame: margins around a data area, both axes with ticks, grid and
// titles. Titles carry units ("TTFT at client (ms)").
struct SvgPlotFrame
{
    double left = 0.0;
    double top = 0.0;
    double right = 0.0;
    double bottom = 0.0;

    void draw(SvgCanvas &canvas, const SvgAxis &x, const SvgAxis &y, const QString &xTitle,
              const QString &yTitle) const;
};
