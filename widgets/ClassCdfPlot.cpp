#include "ClassCdfPlot.h"
#include "CdfGraph.h"

#include "MillisecondTicker.h"

#include "PlotPalette.h"

#include <qcustomplot.h>

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <array>
#include <cmath>
#include <limits>

namespace {

// Marker shape per percentile, so p95 and p99 read apart without colour.
constexpr std::array<QCPScatterStyle::ScatterShape, kClassQuantiles.size()> kMarkerShapes
    = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond};

} // namespace

ClassCdfPlot::ClassCdfPlot(QWidget *parent)
    : QWidget(parent)
    , m_slo(new QDoubleSpinBox(this))
    , m_plot(new QCustomPlot(this))
{
    setObjectName(QStringLiteral("classCdfPlot"));
    m_slo->setObjectName(QStringLiteral("classCdfSlo"));
    m_slo->setRange(0.0, 1e7);
    m_slo->setDecimals(1);
    m_slo->setSuffix(QStringLiteral(" ms"));
    m_slo->setSpecialValueText(tr("off"));
    m_slo->setToolTip(tr("Draw an SLO line over the class CDFs"));
    m_plot->setMinimumSize(260, 180);
    auto *controls = new QHBoxLayout;
    auto *markers = new QLabel(tr("\u25cb p50  \u25a1 p90  \u25b3 p95  \u25c7 p99"), this);
    markers->setToolTip(tr("Each class is marked where it reaches a percentile it holds (one whose 95% interval "
                           "its n can form)"));
    controls->addWidget(markers);
    controls->addStretch(1);
    controls->addWidget(new QLabel(tr("SLO:"), this));
    controls->addWidget(m_slo);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_plot, 1);

    // The legend sits in its own column right of the plot: slow classes
    // reach the lower right, where an inset legend would cover them, and
    // the dock is wider than it is tall.
    m_plot->legend->setVisible(true);
    auto *legendColumn = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, legendColumn);
    legendColumn->setMargins(QMargins(0, 5, 5, 5));
    legendColumn->addElement(0, 0, m_plot->legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(m_plot)); // pushes the legend to the top
    legendColumn->setRowStretchFactor(1, 100.0);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->yAxis->setLabel(tr("Share of requests \u2264 x"));
    applyPalette();
    connect(m_slo, &QDoubleSpinBox::valueChanged, this, &ClassCdfPlot::redraw);
    redraw();
}

QColor ClassCdfPlot::classColour(int i)
{
    static const std::array<QColor, 7> colours = {
        QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
        QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x6B, 0x4E, 0x2E),
    };
    return colours[size_t(i) % colours.size()];
}

void ClassCdfPlot::setCurves(std::vector<ClassCell> cells, std::optional<ClassCell> overall, Metric metric,
                             Boundary boundary)
{
    m_cells = std::move(cells);
    m_overall = std::move(overall);
    m_metric = metric;
    m_boundary = boundary;
    redraw();
}

void ClassCdfPlot::setSloMs(double ms)
{
    m_slo->setValue(ms);
}

double ClassCdfPlot::sloMs() const
{
    return m_slo->value();
}

QStringList ClassCdfPlot::legendNames() const
{
    QStringList names;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(m_plot->legend->item(i)))
            names.append(item->plottable()->name());
    }
    return names;
}

void ClassCdfPlot::redraw()
{
    const QLocale locale;
    m_plot->clearGraphs();
    m_plot->clearItems();
    // Times read in the unit their range needs (ms, s, min); ITL stays per token.
    double largest = qMax(0.0, m_slo->value());
    for (const ClassCell &cell : m_cells) {
        if (!cell.cdf.empty())
            largest = qMax(largest, cell.cdf.back().x);
    }
    if (m_overall && !m_overall->cdf.empty())
        largest = qMax(largest, m_overall->cdf.back().x);
    QString unit = metricUnit(m_metric);
    if (m_metric == Metric::Itl)
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    else
        unit = MillisecondTicker::apply(m_plot->xAxis, largest, false);
    m_plot->xAxis->setLabel(tr("%1 at the %2 boundary (%3)").arg(metricLabel(m_metric), boundaryKey(m_boundary), unit));
    const QColor text = palette().color(QPalette::Text);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();

    auto addCurve = [&](const ClassCell &cell, const QString &label, const QPen &pen) {
        if (cell.cdf.empty())
            return;
        const QString name = cell.cdfN < 0
            ? tr("%1 (n = %2)").arg(label, locale.toString(cell.n))
            : tr("%1 (n = %2 held of %3)").arg(label, locale.toString(cell.cdfN), locale.toString(cell.n));
        CdfGraph::add(m_plot, cell.cdf, name, pen);
        lo = qMin(lo, cell.cdf.front().x);
        hi = qMax(hi, cell.cdf.back().x);
        // Percentile markers: one scatter-only graph per percentile, kept out of the legend.
        for (size_t q = 0; q < kClassQuantiles.size(); ++q) {
            const QuantileEstimate &estimate = cell.quantiles[q];
            if (estimate.tooFew())
                continue;
            QCPGraph *marker = m_plot->addGraph();
            marker->setLineStyle(QCPGraph::lsNone);
            marker->setScatterStyle(QCPScatterStyle(kMarkerShapes[q], pen.color(), palette().color(QPalette::Base), 8));
            marker->setData({estimate.value}, {estimate.q});
            marker->removeFromLegend();
        }
    };
    for (size_t i = 0; i < m_cells.size(); ++i)
        addCurve(m_cells[i], m_cells[i].label(), QPen(classColour(int(i)), 2.0));
    if (m_overall)
        addCurve(*m_overall, tr("overall"), QPen(text, 1.5, Qt::DashLine));

    const double slo = m_slo->value();
    if (slo > 0.0) {
        CdfGraph::addSloLine(m_plot, slo, tr("SLO %1 %2").arg(locale.toString(slo, 'f', 1), metricUnit(m_metric)),
                             palette().color(QPalette::Base));
        lo = qMin(lo, slo);
        hi = qMax(hi, slo);
    }
    CdfGraph::fitAndReplot(m_plot, lo, hi);
}

void ClassCdfPlot::applyPalette()
{
    PlotPalette::apply(m_plot, palette());
}

void ClassCdfPlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        redraw();
    }
    QWidget::changeEvent(event);
}
