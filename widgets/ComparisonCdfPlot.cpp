#include "ComparisonCdfPlot.h"
#include "CdfGraph.h"

#include "ClassCdfPlot.h"
#include "PlotPalette.h"
#include "report/ReportFormat.h"

#include <qcustomplot.h>

#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

constexpr int kRowSpacing = 3; // between the legend's lines, when there is room

} // namespace

ComparisonCdfPlot::ComparisonCdfPlot(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    setObjectName(QStringLiteral("comparisonCdfPlot"));
    m_plot->setMinimumSize(280, 130); // fits the Compare dock at 1280x720
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    // The legend in its own column: slow classes reach the lower right.
    m_plot->legend->setVisible(true);
    m_legendColumn = new QCPLayoutGrid;
    auto *legendColumn = m_legendColumn;
    m_plot->plotLayout()->addElement(0, 1, legendColumn);
    legendColumn->setMargins(QMargins(0, 5, 5, 5));
    // The key to the marks heads the legend column, one line each, so it
    // never widens the plot's column (where it was clipped in a narrow dock).
    m_title = new QCPTextElement(m_plot, QString(), QFont(font().family(), font().pointSize()));
    m_title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    legendColumn->addElement(0, 0, m_title);
    legendColumn->addElement(1, 0, m_plot->legend);
    legendColumn->addElement(2, 0, new QCPLayoutElement(m_plot));
    legendColumn->setRowStretchFactor(0, 0.001);
    legendColumn->setRowStretchFactor(1, 0.001);
    legendColumn->setRowStretchFactor(2, 100.0);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->yAxis->setLabel(tr("Share of requests \u2264 x"));
    PlotPalette::apply(m_plot, palette());
    redraw();
}

void ComparisonCdfPlot::setCurves(std::vector<Curve> curves, Metric metric, Boundary boundary, double q, double sloMs)
{
    m_curves = std::move(curves);
    m_metric = metric;
    m_boundary = boundary;
    m_q = q;
    m_sloMs = sloMs;
    redraw();
}

QStringList ComparisonCdfPlot::legendNames() const
{
    QStringList names;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(m_plot->legend->item(i)))
            names.append(item->plottable()->name());
    }
    return names;
}

QString ComparisonCdfPlot::title() const
{
    return m_title->text().replace(QLatin1Char('\n'), QStringLiteral(" \u00b7 "));
}

void ComparisonCdfPlot::redraw()
{
    const QLocale locale;
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->xAxis->setLabel(
        tr("%1 at the %2 boundary (%3)").arg(metricLabel(m_metric), boundaryKey(m_boundary), metricUnit(m_metric)));
    m_title->setText(tr("dashed: baseline\nsolid: candidate\nmarks: %1 with its 95% interval")
                         .arg(ReportFormat::percentileLabel(m_q)));
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    const QColor base = palette().color(QPalette::Base);
    for (size_t i = 0; i < m_curves.size(); ++i) {
        const Curve &curve = m_curves[i];
        const QColor colour = ClassCdfPlot::classColour(int(i));
        for (const bool candidate : {false, true}) {
            const auto &points = candidate ? curve.candidate : curve.baseline;
            const QuantileEstimate &estimate = candidate ? curve.difference.candidate : curve.difference.baseline;
            if (points.empty())
                continue;
            CdfGraph::add(m_plot, points,
                          tr("%1 \u00b7 %2 (n = %3)")
                              .arg(curve.label, candidate ? tr("candidate") : tr("baseline"),
                                   locale.toString(estimate.interval.n)),
                          QPen(colour, candidate ? 2.2 : 1.6, candidate ? Qt::SolidLine : Qt::DashLine));
            lo = qMin(lo, points.front().x);
            hi = qMax(hi, points.back().x);
            if (!std::isfinite(estimate.value))
                continue;
            // The percentile's interval as a bar across the curve, then its mark.
            if (!estimate.tooFew()) {
                auto *bar = new QCPItemLine(m_plot);
                bar->start->setCoords(estimate.lower, m_q);
                bar->end->setCoords(estimate.upper, m_q);
                bar->setPen(QPen(colour, candidate ? 5.0 : 3.0, Qt::SolidLine, Qt::FlatCap));
                bar->setHead(QCPLineEnding(QCPLineEnding::esBar, 10));
                bar->setTail(QCPLineEnding(QCPLineEnding::esBar, 10));
            }
            QCPGraph *marker = m_plot->addGraph();
            marker->setLineStyle(QCPGraph::lsNone);
            marker->setScatterStyle(QCPScatterStyle(candidate ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle,
                                                    colour, candidate ? colour : base, 9));
            marker->setData({estimate.value}, {m_q});
            marker->removeFromLegend();
        }
    }
    if (m_sloMs > 0.0) {
        CdfGraph::addSloLine(m_plot, m_sloMs,
                             tr("SLO %1 %2").arg(locale.toString(m_sloMs, 'f', 1), metricUnit(m_metric)), base);
        lo = qMin(lo, m_sloMs);
        hi = qMax(hi, m_sloMs);
    }
    // A horizontal guide at the target percentile.
    auto *guide = new QCPItemStraightLine(m_plot);
    guide->point1->setCoords(0.0, m_q);
    guide->point2->setCoords(1.0, m_q);
    guide->setPen(QPen(palette().color(QPalette::Mid), 1.0, Qt::DotLine));
    m_plot->setToolTip(keyShown() ? QString() : m_title->text());
    CdfGraph::fitAndReplot(m_plot, lo, hi);
}

bool ComparisonCdfPlot::keyShown() const
{
    return m_title->layout() != nullptr;
}

void ComparisonCdfPlot::fitToSize()
{
    // In a short plot (a laptop's Compare dock) the key to the marks yields
    // its place to the legend, whose lines name the curves, and becomes the
    // plot's tooltip; the legend's lines close up.
    m_plot->legend->setRowSpacing(kRowSpacing);
    const QCPLayoutElement *key = m_title;
    const QCPLayoutElement *legend = m_plot->legend;
    const int needed = key->minimumOuterSizeHint().height() + legend->minimumOuterSizeHint().height()
        + m_legendColumn->margins().top() + m_legendColumn->margins().bottom();
    const bool fits = m_plot->height() >= needed;
    m_plot->legend->setRowSpacing(fits ? kRowSpacing : 0);
    if (fits != keyShown()) {
        if (fits)
            m_legendColumn->addElement(0, 0, m_title);
        else
            m_legendColumn->take(m_title);
        m_title->setVisible(fits);
        m_plot->setToolTip(fits ? QString() : m_title->text());
    }
    // A short axis takes the short label.
    m_plot->yAxis->setLabel(m_plot->axisRect()->height() < 150 ? tr("Share \u2264 x")
                                                               : tr("Share of requests \u2264 x"));
    m_plot->replot();
    // About one x tick label per 70 px of the axis (laid out by the replot),
    // so a narrow plot's labels never run into each other.
    const int ticks = std::clamp(m_plot->axisRect()->width() / 70, 2, 6);
    if (ticks != m_plot->xAxis->ticker()->tickCount()) {
        m_plot->xAxis->ticker()->setTickCount(ticks);
        m_plot->replot();
    }
}

void ComparisonCdfPlot::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitToSize();
}

void ComparisonCdfPlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        PlotPalette::apply(m_plot, palette());
        redraw();
    }
    QWidget::changeEvent(event);
}
