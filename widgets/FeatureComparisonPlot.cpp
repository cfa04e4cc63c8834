#include "FeatureComparisonPlot.h"

#include "FeatureText.h"
#include "PlotPalette.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace {

// The set in the swimlanes' exceedance red, the rest in a neutral grey.
const QColor kSetColour(0xC0, 0x00, 0x20);
const QColor kRestColour(0x90, 0x90, 0x90);

} // namespace

FeatureComparisonPlot::FeatureComparisonPlot(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    setObjectName(QStringLiteral("featureComparisonPlot"));
    m_plot->setMinimumSize(260, 160);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(m_plot, QString(), QFont(font().family(), font().pointSize(), QFont::Bold)));
    m_set = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_rest = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto *group = new QCPBarsGroup(m_plot);
    m_set->setBarsGroup(group);
    m_rest->setBarsGroup(group);
    m_set->setPen(QPen(kSetColour));
    m_set->setBrush(kSetColour);
    m_rest->setPen(QPen(kRestColour.darker(120)));
    m_rest->setBrush(kRestColour);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->yAxis->setLabel(tr("Share of the group (%)"));
    applyPalette();
    clear();
}

void FeatureComparisonPlot::clear()
{
    m_title = tr("Pick a feature above to compare the set with the rest");
    m_set->data()->clear();
    m_rest->data()->clear();
    m_set->setName(tr("set"));
    m_rest->setName(tr("rest"));
    if (auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        title->setText(m_title);
    m_plot->replot();
}

void FeatureComparisonPlot::setSeparation(const FeatureSeparation &separation)
{
    const RequestFeature &feature = separation.feature;
    QVector<double> x;
    QVector<double> set;
    QVector<double> rest;
    double width = 1.0;
    if (!feature.numeric) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        qint64 setN = 0;
        qint64 restN = 0;
        for (size_t i = 0; i < separation.shares.size(); ++i) {
            const ValueShare &value = separation.shares[i];
            x.append(double(i));
            set.append(value.setShare * 100.0);
            rest.append(value.restShare * 100.0);
            ticker->addTick(double(i), value.value);
            setN += value.setCount;
            restN += value.restCount;
        }
        m_plot->xAxis->setTicker(ticker);
        m_plot->xAxis->setLabel(feature.label);
        m_plot->xAxis->setRange(-0.6, double(x.size()) - 0.4);
        m_title = tr("%1: share of each value").arg(feature.label);
        m_set->setName(tr("set (n = %1)").arg(setN));
        m_rest->setName(tr("rest (n = %1)").arg(restN));
    } else {
        const BinnedDistributions &bins = separation.distributions;
        for (size_t i = 0; i + 1 < bins.edges.size(); ++i) {
            x.append((bins.edges[i] + bins.edges[i + 1]) / 2.0);
            set.append(bins.setShares[i] * 100.0);
            rest.append(bins.restShares[i] * 100.0);
        }
        if (bins.edges.size() >= 2)
            width = (bins.edges.back() - bins.edges.front()) / double(bins.edges.size() - 1);
        if (width <= 0.0)
            width = 1.0;
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        m_plot->xAxis->setLabel(feature.unit.isEmpty() ? feature.label
                                                       : tr("%1 (%2)").arg(feature.label, feature.unit));
        if (!bins.edges.empty())
            m_plot->xAxis->setRange(bins.edges.front() - width / 2.0, bins.edges.back() + width / 2.0);
        m_title = tr("%1: distribution over the same bins").arg(feature.label);
        m_set->setName(tr("set (n = %1, median %2)")
                           .arg(separation.setN)
                           .arg(FeatureText::withUnit(separation.setMedian, feature.unit)));
        m_rest->setName(tr("rest (n = %1, median %2)")
                            .arg(separation.restN)
                            .arg(FeatureText::withUnit(separation.restMedian, feature.unit)));
    }
    // Each bar takes under half the slot, so the pair fits side by side.
    m_set->setWidth(width * 0.42);
    m_rest->setWidth(width * 0.42);
    m_set->setData(x, set, true);
    m_rest->setData(x, rest, true);
    m_plot->yAxis->setRange(0.0, 105.0);
    if (auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        title->setText(m_title);
    m_plot->replot();
}

void FeatureComparisonPlot::applyPalette()
{
    PlotPalette::apply(m_plot, palette());
}

void FeatureComparisonPlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        m_plot->replot();
    }
    QWidget::changeEvent(event);
}
