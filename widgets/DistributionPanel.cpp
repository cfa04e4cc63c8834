#include "DistributionPanel.h"
#include "CdfGraph.h"

#include "MarkLabelLayout.h"
#include "MillisecondTicker.h"
#include "PlotPalette.h"
#include "RequestText.h"
#include "ViewState.h"
#include "store/TraceStore.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTimer>
#include <QVBoxLayout>

#include <array>
#include <cmath>

namespace {

struct PercentileMark
{
    const char *label;
    double Distribution::*value;
};

constexpr std::array<PercentileMark, 4> kMarks = {{
    {"p50", &Distribution::p50},
    {"p90", &Distribution::p90},
    {"p95", &Distribution::p95},
    {"p99", &Distribution::p99},
}};

QString valueText(Metric metric, double ms)
{
    return metric == Metric::Itl ? RequestText::perToken(ms) : RequestText::milliseconds(ms);
}

} // namespace

DistributionPanel::DistributionPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_metric(new QComboBox(this))
    , m_logScale(new QCheckBox(tr("Log scale"), this))
    , m_slo(new QDoubleSpinBox(this))
    , m_plot(new QCustomPlot(this))
{
    setObjectName(QStringLiteral("distributionPanel"));
    m_metric->setObjectName(QStringLiteral("distributionMetric"));
    for (const Metric metric : allMetrics())
        m_metric->addItem(metricLabel(metric), int(metric));
    // Narrow enough for a right-hand dock on a 1280 px screen (the list
    // still shows the longest metric name).
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_metric->setMinimumContentsLength(8);
    m_logScale->setObjectName(QStringLiteral("distributionLogScale"));
    m_slo->setObjectName(QStringLiteral("distributionSlo"));
    m_slo->setRange(0.0, 1e7);
    m_slo->setDecimals(1);
    m_slo->setSuffix(QStringLiteral(" ms"));
    m_slo->setSpecialValueText(tr("off"));
    m_slo->setToolTip(tr("Draw an SLO line and report the share of requests within it"));
    m_plot->setObjectName(QStringLiteral("distributionPlot"));
    // Small enough that the window still fits a 1366x768 screen.
    m_plot->setMinimumSize(240, 160);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Metric:"), this));
    controls->addWidget(m_metric);
    controls->addWidget(m_logScale);
    controls->addWidget(new QLabel(tr("SLO:"), this));
    controls->addWidget(m_slo);
    controls->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_plot, 1);

    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(m_plot, QString(), QFont(font().family(), font().pointSize(), QFont::Bold)));
    m_plot->yAxis2->setVisible(true);
    // The legend sits in its own row under the plot, never over the data.
    m_plot->legend->setVisible(true);
    auto *legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(2, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 5));
    // An empty grid's widest is its margins, and the plot's one column is
    // never wider than its narrowest element allows: with no curves (no
    // trace) the legend's row would squeeze the axes to 50 px.
    legendRow->setMaximumSize(QWIDGETSIZE_MAX / 2, QWIDGETSIZE_MAX);
    legendRow->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);
    applyPalette();

    connect(m_metric, &QComboBox::activated, this,
            [this] { m_state->setMetric(static_cast<Metric>(m_metric->currentData().toInt())); });
    connect(m_logScale, &QCheckBox::toggled, this, &DistributionPanel::recompute);
    connect(m_slo, &QDoubleSpinBox::valueChanged, this, &DistributionPanel::recompute);
    connect(state, &ViewState::metricChanged, this, [this](Metric metric) {
        m_metric->setCurrentIndex(m_metric->findData(int(metric)));
        recompute();
    });
    connect(state, &ViewState::storeChanged, this, &DistributionPanel::recompute);
    connect(state, &ViewState::sliceChanged, this, &DistributionPanel::recompute);
    connect(state, &ViewState::boundaryChanged, this, &DistributionPanel::recompute);
    connect(state, &ViewState::selectionChanged, this, &DistributionPanel::recompute);
    m_metric->setCurrentIndex(m_metric->findData(int(state->metric())));
    recompute();
}

DistributionPanel::~DistributionPanel() = default;

void DistributionPanel::setLogScale(bool on)
{
    m_logScale->setChecked(on);
}

void DistributionPanel::setSloMs(double ms)
{
    m_slo->setValue(ms);
}

void DistributionPanel::recompute()
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store) {
        m_job.cancel();
        apply({});
        return;
    }
    const Metric metric = m_state->metric();
    const Boundary boundary = m_state->boundary();
    const bool logScale = m_logScale->isChecked();
    const double slo = m_slo->value();
    // The whole trace is built in the worker: no million-row set on the GUI thread.
    const bool sliced = m_state->hasSlice();
    RowSet scope = sliced ? m_state->slice() : RowSet();
    RowSet selection = m_state->selection().size() >= 2 ? m_state->selection() : RowSet();
    m_job.start(
        [=, scope = std::move(scope), selection = std::move(selection)](const std::atomic<bool> *) {
            Result result;
            DistributionOptions options;
            options.logScale = logScale;
            const RowSet rows = sliced ? scope : RowSet::all(store->requests.rowCount());
            const auto values = DistributionAnalysis::metricValues(store->requests, rows, metric, boundary);
            result.scope = DistributionAnalysis::describe(values, metric, boundary, options);
            if (slo > 0.0 && result.scope.n > 0) {
                qint64 within = 0;
                for (const double v : values)
                    within += !std::isnan(v) && v <= slo;
                result.sloShare = double(within) / double(result.scope.n);
            }
            if (!selection.isEmpty()) {
                const auto picked = DistributionAnalysis::metricValues(store->requests, selection, metric, boundary);
                result.selection = DistributionAnalysis::describe(picked, metric, boundary, options);
            }
            return result;
        },
        [this](const Result &result) { apply(result); });
}

void DistributionPanel::apply(const Result &result)
{
    m_scope = result.scope;
    m_selection = result.selection;
    m_sloShare = result.sloShare;
    redraw();
    emit distributionReady();
}

void DistributionPanel::redraw()
{
    const QLocale locale;
    const Metric metric = m_scope.metric;
    const QString unit = metricUnit(metric);
    const QString population = m_state->scopeText();
    m_title = tr("%1 at the %2 boundary \u00b7 n = %3 \u00b7 %4")
                  .arg(metricLabel(metric), boundaryKey(m_scope.boundary), locale.toString(m_scope.n), population);
    if (!m_state->store())
        m_title = tr("No trace loaded");
    showTitle();

    m_plot->clearGraphs();
    m_plot->clearItems();
    m_markLabels.clear();
    const bool log = m_logScale->isChecked();
    m_plot->xAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (metric == Metric::Itl) {
        if (log)
            m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        else
            m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        m_plot->xAxis->setLabel(tr("%1 (%2)").arg(metricLabel(metric), unit));
    } else {
        // Times read in the unit their range needs (ms, s, min).
        const double largest = qMax(m_scope.n > 0 ? m_scope.max : 0.0, m_slo->value());
        m_plot->xAxis->setLabel(
            tr("%1 (%2)").arg(metricLabel(metric), MillisecondTicker::apply(m_plot->xAxis, largest, log)));
    }
    m_plot->yAxis->setLabel(tr("Requests per bin"));
    m_plot->yAxis2->setLabel(tr("Share of requests \u2264 x"));
    const QColor text = palette().color(QPalette::Text);
    m_emptyNote = m_scope.n == 0 ? m_state->emptySliceText() : QString();
    if (m_scope.n == 0) {
        QString empty = QString(m_emptyNote).replace(QStringLiteral(". "), QStringLiteral(".\n"));
        if (empty.isEmpty() && m_state->store() && m_state->scopeSize() > 0) {
            // Requests are in scope but none has this metric: say what it needs.
            empty = tr("None of these %1 requests has %2.\n%3.")
                        .arg(locale.toString(m_state->scopeSize()), metricLabel(metric),
                             whatMetricNeeds(metric, m_scope.boundary)
                                 .replace(QStringLiteral("; "), QStringLiteral(";\n")));
        }
        if (!m_state->store())
            empty = tr("Open a trace to see its distribution.");
        // Nothing to scale the axes to: a plain unit frame, not the last
        // trace's ranges or QCustomPlot's defaults.
        m_plot->xAxis->setRange(0.0, log ? 10.0 : 1.0);
        m_plot->yAxis->setRange(0.0, 1.0);
        m_plot->yAxis2->setRange(0.0, 1.0);
        m_plot->legend->setVisible(false); // nothing in it
        if (!empty.isEmpty()) {
            // Said inside the plot, where the histogram would be.
            auto *note = new QCPItemText(m_plot);
            note->setObjectName(QStringLiteral("emptyNote"));
            note->position->setType(QCPItemPosition::ptAxisRectRatio);
            note->position->setCoords(0.5, 0.5);
            note->setPositionAlignment(Qt::AlignCenter);
            note->setColor(text);
            note->setText(empty);
        }
        m_plot->replot();
        return;
    }

    m_plot->legend->setVisible(true);
    // Histogram: a filled step outline, correct for linear and log bins alike.
    const Histogram &histogram = m_scope.histogram;
    QCPGraph *bars = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    bars->setName(tr("histogram"));
    bars->setLineStyle(QCPGraph::lsStepLeft);
    bars->setPen(QPen(PlotPalette::histogramOutline(palette())));
    bars->setBrush(PlotPalette::histogramFill(palette()));
    double maxCount = 1.0;
    QVector<double> bx;
    QVector<double> by;
    for (int i = 0; i < histogram.binCount(); ++i) {
        bx.append(histogram.edges[size_t(i)]);
        by.append(double(histogram.counts[size_t(i)]));
        maxCount = qMax(maxCount, double(histogram.counts[size_t(i)]));
    }
    if (!histogram.edges.empty()) {
        bx.append(histogram.edges.back());
        by.append(by.isEmpty() ? 0.0 : by.back());
    }
    // Every value equal: the model's one bin has no width, and a bar of no
    // width draws nothing. Drawn 4% wide around the value (the axis shows
    // ±10% of it), in the axis' own space on a log scale.
    if (bx.size() == 2 && bx[0] == bx[1]) {
        const double value = bx[0];
        const double half = log ? 0.0 : qMax(std::abs(value) * 0.02, 1e-4);
        bx[0] = log ? value / 1.02 : value - half;
        bx[1] = log ? value * 1.02 : value + half;
    }
    bars->setData(bx, by, true);

    auto addCdf = [&](const Distribution &distribution, const QString &name, const QColor &colour) {
        CdfGraph::add(m_plot, distribution.cdf, name, QPen(colour, 2.0), m_plot->yAxis2);
    };
    addCdf(m_scope, tr("CDF (n = %1)").arg(locale.toString(m_scope.n)), text);
    if (m_selection && m_selection->n > 0)
        addCdf(*m_selection, tr("selection CDF (n = %1)").arg(locale.toString(m_selection->n)),
               palette().color(QPalette::Highlight));

    // Percentile marks: dashed lines, each label beside its own line where
    // it crosses the fewest other lines and overlaps no other label
    // (placeMarkLabels, again whenever the plot is resized).
    double lo = m_scope.min;
    double hi = m_scope.max;
    if (log)
        lo = qMax(lo, histogram.edges.empty() ? 1e-3 : histogram.edges.front());
    auto addMark = [&](double value, const QString &caption, const QColor &colour, Qt::PenStyle style, double width) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(value, 0.0);
        line->point2->setCoords(value, 1.0);
        line->setPen(QPen(colour, width, style));
        auto *label = new QCPItemText(m_plot);
        label->setObjectName(QStringLiteral("markLabel"));
        label->position->setType(QCPItemPosition::ptAbsolute);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setColor(colour);
        // See-through enough that the CDF under a label stays visible.
        QColor labelBackground = palette().color(QPalette::Base);
        labelBackground.setAlpha(170);
        label->setBrush(labelBackground);
        label->setText(caption);
        m_markLabels.emplace_back(label, value); // placed once the plot is laid out
    };
    for (const PercentileMark &mark : kMarks) {
        const double value = m_scope.*(mark.value);
        addMark(value, QStringLiteral("%1 %2").arg(QLatin1String(mark.label), valueText(metric, value)), text,
                Qt::DashLine, 1.0);
    }
    const double slo = m_slo->value();
    if (slo > 0.0) {
        addMark(slo, tr("SLO %1: %2% within").arg(valueText(metric, slo), locale.toString(m_sloShare * 100.0, 'f', 1)),
                QColor(0xC0, 0x00, 0x20), Qt::SolidLine, 2.0);
        lo = qMin(lo, slo);
        hi = qMax(hi, slo);
    }
    // Every value equal (one workflow, or identical µs spans): ±10% around
    // it, not ±1e-9 ms whose ticks all read the same number.
    const double spread = hi - lo;
    const double pad = log ? 1.0 : spread > 0.0 ? spread * 0.03 : qMax(std::abs(hi) * 0.1, 1e-3);
    if (log)
        m_plot->xAxis->setRange(lo / 1.15, hi * 1.15);
    else
        m_plot->xAxis->setRange(lo - pad, hi + pad);
    m_plot->yAxis->setRange(0.0, maxCount * 1.08);
    m_plot->yAxis2->setRange(0.0, 1.04);
    // Lay the plot out (QCustomPlot::updateLayout's phases, without drawing)
    // to learn where its axis rect is, then place the labels: one replot, in
    // placeMarkLabels, not two per result.
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        m_plot->plotLayout()->update(phase);
    placeMarkLabels();
}

void DistributionPanel::placeMarkLabels()
{
    if (m_markLabels.empty())
        return;
    const QRect area = m_plot->axisRect()->rect();
    const QFontMetrics metrics(m_markLabels.front().first->font());
    const double rowHeight = metrics.height() + 4.0;
    std::vector<MarkLabelLayout::Mark> marks;
    for (const auto &[label, value] : m_markLabels) {
        // The box QCPItemText draws: its text's bounding rect and padding.
        const QRect text = metrics.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignLeft, label->text());
        const QMargins padding = label->padding();
        marks.push_back({m_plot->xAxis->coordToPixel(value), double(text.width() + padding.left() + padding.right())});
    }
    const int rows = qMax(1, int((area.height() - 8) / rowHeight));
    const auto placements
        = MarkLabelLayout::place(marks, area.left() + 2.0, area.right() - 2.0, area.top() + 4.0, rowHeight, rows);
    for (size_t i = 0; i < placements.size(); ++i) {
        // Anchored at the edge next to the line, so the gap is exact.
        QCPItemText *label = m_markLabels[i].first;
        const MarkLabelLayout::Placement &placement = placements[i];
        label->setPositionAlignment((placement.rightOfLine ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
        label->position->setCoords(placement.rightOfLine ? placement.rect.left() : placement.rect.right(),
                                   placement.rect.top());
    }
    m_plot->replot();
}

void DistributionPanel::applyPalette()
{
    PlotPalette::apply(m_plot, palette());
}

void DistributionPanel::showTitle()
{
    if (auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0))) {
        // A long filter label is cut at its end rather than at both edges.
        title->setText(
            QFontMetrics(title->font()).elidedText(m_title, Qt::ElideRight, qMax(100, m_plot->width() - 16)));
        m_plot->setToolTip(m_title);
    }
}

void DistributionPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    showTitle();
    // The lines moved with the axis: their labels follow (the plot has its new
    // size once it has been laid out).
    QTimer::singleShot(0, this, [this] {
        m_plot->replot();
        placeMarkLabels();
    });
}

void DistributionPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        redraw();
    }
    QWidget::changeEvent(event);
}
