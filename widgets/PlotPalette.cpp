#include "PlotPalette.h"

#include <QPalette>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

namespace PlotPalette {

void apply(QCustomPlot *plot, const QPalette &palette)
{
    plot->setBackground(palette.color(QPalette::Base));
    plot->axisRect()->setBackground(palette.color(QPalette::Base));
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(40);
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1.0, Qt::DotLine));
    }
    plot->legend->setBrush(palette.color(QPalette::Base));
    plot->legend->setTextColor(text);
    plot->legend->setBorderPen(QPen(palette.color(QPalette::Mid)));
    if (plot->plotLayout()->elementCount() > 0) {
        if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)))
            title->setTextColor(text);
    }
}

QColor mix(const QColor &from, const QColor &to, double share)
{
    const auto channel = [share](int a, int b) { return qBound(0, int(std::lround(a + (b - a) * share)), 255); };
    return QColor(channel(from.red(), to.red()), channel(from.green(), to.green()), channel(from.blue(), to.blue()));
}

QColor histogramFill(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.3);
}

QColor histogramOutline(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.6);
}

double contrast(const QColor &a, const QColor &b)
{
    const auto luminance = [](const QColor &colour) {
        const auto linear = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
        return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace PlotPalette
