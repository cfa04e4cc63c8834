#include "SvgAxes.h"

#include "SvgCanvas.h"

#include <cmath>

SvgAxis::SvgAxis(double minimum, double maximum, double pixelFrom, double pixelTo, bool logScale)
    : m_min(minimum)
    , m_max(maximum)
    , m_from(pixelFrom)
    , m_to(pixelTo)
    , m_log(logScale)
{
    if (m_log) {
        m_min = std::max(m_min, 1e-9);
        m_max = std::max(m_max, m_min * 10.0);
    } else if (!(m_max > m_min)) {
        m_max = m_min + 1.0;
    }
}

double SvgAxis::map(double value) const
{
    double t = 0.0;
    if (m_log) {
        const double v = std::max(value, m_min);
        t = (std::log10(v) - std::log10(m_min)) / (std::log10(m_max) - std::log10(m_min));
    } else {
        t = (value - m_min) / (m_max - m_min);
    }
    t = std::clamp(t, 0.0, 1.0);
    return m_from + t * (m_to - m_from);
}

double SvgAxis::niceStep(double span, int wanted)
{
    if (!(span > 0.0))
        return 1.0;
    const double raw = span / std::max(1, wanted);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (raw <= factor * magnitude)
            return factor * magnitude;
    }
    return 10.0 * magnitude;
}

std::pair<double, double> SvgAxis::niceRange(double minimum, double maximum, bool logScale)
{
    if (logScale) {
        const double low = std::pow(10.0, std::floor(std::log10(std::max(minimum, 1e-9))));
        const double high = std::pow(10.0, std::ceil(std::log10(std::max(maximum, low * 10.0))));
        return {low, high};
    }
    if (!(maximum > minimum))
        maximum = minimum + 1.0;
    const double step = niceStep(maximum - minimum, 6);
    return {std::floor(minimum / step) * step, std::ceil(maximum / step) * step};
}

std::vector<double> SvgAxis::ticks(int wanted) const
{
    std::vector<double> values;
    if (m_log) {
        // Integer counters: a double one can stop advancing (v + step == v).
        const int first = int(std::ceil(std::log10(m_min) - 1e-9));
        for (int power = first; power < first + 400 && std::pow(10.0, power) <= m_max * (1 + 1e-9); ++power)
            values.push_back(std::pow(10.0, power));
        return values;
    }
    const double step = niceStep(m_max - m_min, wanted);
    const double first = std::ceil(m_min / step - 1e-9);
    for (int i = 0; i < 1000 && (first + i) * step <= m_max + step * 1e-9; ++i) {
        const double v = (first + i) * step;
        values.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return values;
}

QString SvgAxis::label(double value)
{
    const double magnitude = std::abs(value);
    const auto compact = [](double v, const char *suffix) -> QString {
        QString text = QString::number(v, 'f', 1);
        if (text.endsWith(QStringLiteral(".0")))
            text.chop(2);
        return text + QLatin1String(suffix);
    };
    if (magnitude >= 1e6)
        return compact(value / 1e6, "M");
    if (magnitude >= 1e4)
        return compact(value / 1e3, "k");
    if (magnitude >= 10.0 || magnitude == 0.0)
        return QString::number(value, 'f', 0);
    if (magnitude >= 1.0)
        return compact(value, "");
    return QString::number(value, 'g', 2);
}

void SvgPlotFrame::draw(SvgCanvas &canvas, const SvgAxis &x, const SvgAxis &y, const QString &xTitle,
                        const QString &yTitle) const
{
    const double x0 = left;
    const double x1 = canvas.width() - right;
    const double y0 = canvas.height() - bottom;
    const double y1 = top;
    const QString grid = QStringLiteral("#e4e4e4");
    const QString axis = QStringLiteral("#555555");
    SvgCanvas::TextStyle tick;
    tick.size = 10.0;
    tick.fill = QStringLiteral("#444444");
    tick.anchor = SvgCanvas::Anchor::Middle;
    for (const double value : x.ticks()) {
        const double px = x.map(value);
        canvas.line(px, y1, px, y0, grid);
        canvas.text(px, y0 + 14.0, SvgAxis::label(value), tick);
    }
    tick.anchor = SvgCanvas::Anchor::End;
    for (const double value : y.ticks(5)) {
        const double py = y.map(value);
        canvas.line(x0, py, x1, py, grid);
        canvas.text(x0 - 5.0, py + 3.5, SvgAxis::label(value), tick);
    }
    canvas.line(x0, y0, x1, y0, axis);
    canvas.line(x0, y0, x0, y1, axis);
    SvgCanvas::TextStyle title;
    title.size = 11.0;
    title.anchor = SvgCanvas::Anchor::Middle;
    canvas.text((x0 + x1) / 2.0, canvas.height() - 6.0, xTitle, title);
    title.rotate = -90.0;
    canvas.text(13.0, (y0 + y1) / 2.0, yTitle, title);
}
