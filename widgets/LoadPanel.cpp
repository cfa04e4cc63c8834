#include "LoadPanel.h"

#include "InSightWork.h"
#include "PlotPalette.h"
#include "SwimlaneCoordinates.h"
#include "ViewState.h"
#include "remote/ServerFigures.h"
#include "store/TraceStore.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <cmath>

namespace {

const QColor kArrivals(0x00, 0x72, 0xB2);
const QColor kCompletions(0x00, 0x9E, 0x73);
const QColor kFailures(0xD5, 0x5E, 0x00);
const QColor kInFlight(0xE6, 0x9F, 0x00);
const QColor kQueue(0xCC, 0x79, 0xA7);

// A 1-2-5 bin width giving about 200 bins over `spanNs`, at least 10 ms.
qint64 autoBin(qint64 spanNs)
{
    const double target = double(spanNs) / 200.0;
    for (qint64 decade = 10'000'000;; decade *= 10) {
        for (const qint64 mantissa : {1, 2, 5}) {
            if (double(mantissa * decade) >= target)
                return mantissa * decade;
        }
    }
}

QString seconds(qint64 ns)
{
    return QString::number(double(ns) / 1e9, 'f', qAbs(ns) < 10'000'000'000 ? 2 : 1);
}

// "+12.30" or "\u22121.68": seconds from the first arrival, signed.
QString offset(qint64 ns)
{
    return (ns < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + seconds(qAbs(ns));
}

} // namespace

LoadPanel::LoadPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_bin(new QComboBox(this))
    , m_sloTtft(new QDoubleSpinBox(this))
    , m_sloItl(new QDoubleSpinBox(this))
    , m_clearPick(new QPushButton(tr("Clear range"), this))
    , m_plot(new QCustomPlot(this))
    , m_summary(new QLabel(this))
    , m_little(new QLabel(this))
    , m_population(new QLabel(this))
{
    setObjectName(QStringLiteral("loadPanel"));
    m_bin->setObjectName(QStringLiteral("loadBin"));
    m_bin->addItem(tr("auto"), qint64(0));
    for (const auto &[label, ns] :
         {std::pair{tr("0.1 s"), qint64(100'000'000)}, std::pair{tr("1 s"), qint64(1'000'000'000)},
          std::pair{tr("10 s"), qint64(10'000'000'000)}, std::pair{tr("1 min"), qint64(60'000'000'000)}})
        m_bin->addItem(label, ns);
    m_bin->setToolTip(tr("Bin width of the series"));
    for (auto *spin : {m_sloTtft, m_sloItl}) {
        spin->setRange(1.0, 1e7);
        spin->setDecimals(0);
    }
    m_sloTtft->setObjectName(QStringLiteral("loadSloTtft"));
    m_sloTtft->setValue(Slo{}.ttftMs);
    m_sloTtft->setSuffix(tr(" ms"));
    m_sloTtft->setToolTip(tr("Goodput objective: TTFT at the chosen boundary"));
    m_sloItl->setObjectName(QStringLiteral("loadSloItl"));
    m_sloItl->setValue(Slo{}.itlMs);
    m_sloItl->setSuffix(tr(" ms/token"));
    m_sloItl->setToolTip(tr("Goodput objective: the request's mean inter-token latency"));
    m_clearPick->setObjectName(QStringLiteral("loadClearRange"));
    m_clearPick->setEnabled(false);
    m_plot->setObjectName(QStringLiteral("loadPlot"));
    m_plot->setMinimumSize(240, 200);
    m_summary->setObjectName(QStringLiteral("loadSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_little->setObjectName(QStringLiteral("loadLittle"));
    m_little->setWordWrap(true);
    m_little->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_population->setObjectName(QStringLiteral("loadPopulation"));
    m_population->setWordWrap(true);
    m_population->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_population->hide();

    // The dock is wide and short: the plot takes the full height, the
    // controls and the figures about it sit in a column on the right.
    auto *form = new QFormLayout;
    form->addRow(tr("Bin:"), m_bin);
    form->addRow(tr("Goodput: TTFT \u2264"), m_sloTtft);
    form->addRow(tr("and ITL \u2264"), m_sloItl);
    auto *side = new QVBoxLayout;
    side->addLayout(form);
    side->addWidget(m_clearPick, 0, Qt::AlignLeft);
    side->addWidget(m_population); // on a sample: the population's figures first
    side->addWidget(m_summary);
    side->addWidget(m_little);
    side->addStretch(1);
    auto *sideWidget = new QWidget(this);
    sideWidget->setLayout(side);
    sideWidget->setFixedWidth(330);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_plot, 1);
    layout->addWidget(sideWidget);
    m_clearPick->setToolTip(tr("Drag across the plot to pick the requests that arrived in a time range"));

    // Title, rates, levels, legend: one column sharing the time axis. The
    // legend sits in its own row under the plots, never over the data, and
    // the rects keep a height of their own: in a short dock (900 px window)
    // a legend column beside them squeezed the levels to nothing.
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(m_plot, QString(), QFont(font().family(), font().pointSize(), QFont::Bold)));
    m_levels = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(2, 0, m_levels);
    auto *group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_levels->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_plot->axisRect()->setMinimumSize(0, 45);
    m_levels->setMinimumSize(0, 40);
    m_plot->xAxis->setTickLabels(false); // the levels' axis below names the times
    m_plot->legend->setVisible(true);
    auto *legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(3, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 4));
    legendRow->setMaximumSize(QWIDGETSIZE_MAX / 2, QWIDGETSIZE_MAX); // an empty grid must not narrow the column
    legendRow->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->plotLayout()->setRowStretchFactor(3, 0.001);
    for (QCPAxis *axis : {m_plot->yAxis, m_levels->axis(QCPAxis::atLeft)})
        axis->ticker()->setTickCount(3);
    m_plot->xAxis->setLabel(QString());
    m_plot->yAxis->setLabel(tr("req/s"));
    m_levels->axis(QCPAxis::atBottom)->setLabel(tr("time since the first arrival (s) [client boundary]"));
    m_levels->axis(QCPAxis::atLeft)->setLabel(tr("mean"));
    for (QCPAxisRect *rect : {m_plot->axisRect(), m_levels}) {
        rect->setRangeZoom(Qt::Horizontal);
        rect->setRangeZoomAxes(rect->axis(QCPAxis::atBottom), nullptr);
    }
    m_plot->setInteraction(QCP::iRangeZoom, true);
    connect(m_plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this](const QCPRange &range) {
        m_levels->axis(QCPAxis::atBottom)->setRange(range);
        if (!m_following && m_state->timeAxis() == TimeAxis::Absolute && m_result.timeline.binCount() > 0)
            m_state->setTimeWindow({fromPlot(range.lower), fromPlot(range.upper)});
        recheckLittle();
    });
    connect(m_levels->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange &range) {
                if (m_plot->xAxis->range() != range)
                    m_plot->xAxis->setRange(range);
            });
    m_pickBand = new QCPItemRect(m_plot);
    m_pickBand->setClipAxisRect(m_plot->axisRect());
    m_pickBand->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
    m_pickBand->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_pickBand->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
    m_pickBand->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_pickBand->topLeft->setAxisRect(m_plot->axisRect());
    m_pickBand->bottomRight->setAxisRect(m_plot->axisRect());
    m_pickBand->setVisible(false);
    m_plot->installEventFilter(this);
    applyPalette();

    connect(m_bin, &QComboBox::activated, this, &LoadPanel::recompute);
    connect(m_sloTtft, &QDoubleSpinBox::valueChanged, this, &LoadPanel::recompute);
    connect(m_sloItl, &QDoubleSpinBox::valueChanged, this, &LoadPanel::recompute);
    connect(m_clearPick, &QPushButton::clicked, this, [this] {
        if (m_state->hasSlice() && m_state->sliceLabel() == m_pickLabel)
            m_state->clearSlice();
    });
    m_refresh = new InSightWork(this, [this] { recompute(); });
    connect(state, &ViewState::storeChanged, this, [this] { m_refresh->run(m_state->isStoreRefresh()); });
    connect(state, &ViewState::sliceChanged, this, &LoadPanel::recompute);
    connect(state, &ViewState::boundaryChanged, this, &LoadPanel::recompute);
    connect(state, &ViewState::timeWindowChanged, this, &LoadPanel::followTimeWindow);
    connect(state, &ViewState::timeAxisChanged, this, &LoadPanel::followTimeWindow);
    recompute();
}

LoadPanel::~LoadPanel() = default;

qint64 LoadPanel::binNs() const
{
    return m_bin->currentData().toLongLong();
}

void LoadPanel::recompute()
{
    if (m_refresh->isPending())
        return; // out of sight since a live refresh: done once looked at
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store) {
        m_job.cancel();
        apply({});
        return;
    }
    // The panel's own pick keeps the whole trace drawn, the range shaded;
    // any other slice (a class, a filter) scopes the series.
    const bool ownPick = m_state->hasSlice() && m_state->sliceLabel() == m_pickLabel;
    const bool sliced = m_state->hasSlice() && !ownPick;
    RowSet scope = sliced ? m_state->slice() : RowSet();
    const Slo slo{m_sloTtft->value(), m_sloItl->value()};
    const Boundary boundary = m_state->boundary();
    const qint64 chosenBin = binNs();
    askPopulation(store, sliced, slo, boundary);
    m_job.start(
        [=, scope = std::move(scope)](const std::atomic<bool> *) {
            Result result;
            const RowSet *rows = sliced ? &scope : nullptr;
            const auto &table = store->requests;
            qint64 bin = chosenBin;
            if (bin == 0) {
                const LoadTimeline probe = LoadAnalysis::timeline(*store, rows, 60'000'000'000, slo, boundary, 1);
                bin = autoBin(qMax<qint64>(1, probe.binNs));
            }
            result.timeline = LoadAnalysis::timeline(*store, rows, bin, slo, boundary);
            result.burst = LoadAnalysis::burstEnvelope(table, rows);
            result.steadiness = ServiceLoad::littlesLaw(table, std::nan(""), 0.10, rows);
            result.originNs = result.timeline.startNs;
            return result;
        },
        [this](Result result) { apply(std::move(result)); });
}

void LoadPanel::askPopulation(const std::shared_ptr<const TraceStore> &store, bool sliced, const Slo &slo,
                              Boundary boundary)
{
    if (!store || store->serverUrl.isEmpty() || sliced) {
        m_populationJob.cancel();
        m_populationAsked.reset();
        m_population->clear();
        m_population->hide();
        return;
    }
    if (m_populationAsked && m_populationAsked->store.lock() == store && m_populationAsked->slo.ttftMs == slo.ttftMs
        && m_populationAsked->slo.itlMs == slo.itlMs && m_populationAsked->boundary == boundary)
        return; // asked already (or answered): a new bin or pick changes none of it
    m_populationAsked = PopulationKey{store, slo, boundary};
    m_population->setText(tr("The whole population's goodput and peak in flight: asking the server\u2026"));
    m_population->show();
    struct Figures
    {
        Goodput goodput;
        LittlesLawCheck little;
        QString error;
    };
    m_populationJob.start(
        [url = store->serverUrl, slo, boundary](const std::atomic<bool> *cancel) {
            Figures figures;
            if (!ServerFigures::goodput(url, slo, boundary, cancel, &figures.goodput, &figures.little, &figures.error)
                && figures.error.isEmpty())
                figures.error = tr("no answer");
            return figures;
        },
        [this](const Figures &figures) {
            if (!figures.error.isEmpty()) {
                m_populationAsked.reset(); // asked again on the next recompute
                m_population->setText(tr("The server did not compute the whole population's load figures: %1 "
                                         "(asked again when the series are redrawn: pick another bin to retry)")
                                          .arg(figures.error));
                return;
            }
            const QLocale locale;
            const Goodput &g = figures.goodput;
            const LittlesLawCheck &l = figures.little;
            QString text = tr("The whole population (computed by the server): %1 completed, goodput %2% (%3/s) "
                              "meeting TTFT \u2264 %4 ms and ITL \u2264 %5 ms/token; %6 completions/s over %7 s; "
                              "\u03bbW %8 in flight on average, peak %9.")
                               .arg(locale.toString(g.completed))
                               .arg(100.0 * g.goodShare(), 0, 'f', 1)
                               .arg(g.goodputPerSecond, 0, 'f', 2)
                               .arg(g.slo.ttftMs, 0, 'f', 0)
                               .arg(g.slo.itlMs, 0, 'f', 0)
                               .arg(l.throughputPerSecond, 0, 'f', 2)
                               .arg(l.windowSeconds, 0, 'f', 1)
                               .arg(locale.toString(l.expectedInFlight, 'f', 1))
                               .arg(locale.toString(l.peakInFlight));
            if (l.steadinessJudged)
                text += QLatin1Char(' ')
                    + (l.steady ? tr("Steady.") : tr("NOT steady: a backlog built up over the arrivals."));
            m_population->setText(text);
        });
}

void LoadPanel::apply(Result result)
{
    m_result = std::move(result);
    const bool ownPick = m_state->hasSlice() && m_state->sliceLabel() == m_pickLabel;
    m_clearPick->setEnabled(ownPick);
    redraw();
    followTimeWindow();
    recheckLittle();
    emit timelineReady();
}

void LoadPanel::redraw()
{
    const LoadTimeline &t = m_result.timeline;
    auto *title = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0));
    m_plot->clearGraphs();
    QCPAxis *levelsX = m_levels->axis(QCPAxis::atBottom);
    QCPAxis *levelsY = m_levels->axis(QCPAxis::atLeft);
    const QLocale locale;
    QString scope
        = m_state->scopeText(m_state->hasSlice() && m_state->sliceLabel() != m_pickLabel, m_state->sliceLabel());
    if (!m_state->store()) {
        title->setText(tr("No trace loaded"));
        m_summary->clear();
        m_plot->replot();
        return;
    }
    if (!t.arrivalsUnknown.isEmpty()) {
        title->setText(tr("Arrivals unknown"));
        m_summary->setText(tr("%1, so every request sits at t = 0: arrivals, concurrency and the queue over time "
                              "cannot be drawn from this file. TTFT, ITL and E2E are exact.")
                               .arg(t.arrivalsUnknown));
        m_plot->replot();
        return;
    }
    if (t.binCount() == 0) {
        title->setText(tr("No request has a send time"));
        m_summary->clear();
        m_plot->replot();
        return;
    }
    title->setText(tr("Load over time \u00b7 bins of %1 s \u00b7 %2 requests \u00b7 %3")
                       .arg(seconds(t.binNs), locale.toString(t.placed), scope));
    // A server's sample holds one request in N: its rates and levels are the
    // sample's, about 1/N of the population's, and the axes say so.
    const qint64 oneIn = m_state->store()->sampleOneIn;
    m_plot->yAxis->setLabel(oneIn > 1 ? tr("req/s (sample)") : tr("req/s"));
    m_levels->axis(QCPAxis::atLeft)->setLabel(oneIn > 1 ? tr("mean (sample)") : tr("mean"));
    const double binSeconds = t.binSeconds();
    const auto series
        = [&](QCPAxis *x, QCPAxis *y, const QString &name, const QColor &colour, Qt::PenStyle style, auto value) {
              QCPGraph *graph = m_plot->addGraph(x, y);
              graph->setName(name);
              graph->setLineStyle(QCPGraph::lsStepLeft);
              graph->setPen(QPen(colour, 1.6, style));
              QVector<double> xs;
              QVector<double> ys;
              for (int bin = 0; bin < t.binCount(); ++bin) {
                  xs << toPlot(t.binStart(bin));
                  ys << value(size_t(bin));
              }
              xs << toPlot(t.endNs());
              ys << ys.back();
              graph->setData(xs, ys, true);
              return graph;
          };
    series(m_plot->xAxis, m_plot->yAxis, tr("arrivals/s"), kArrivals, Qt::SolidLine,
           [&](size_t i) { return double(t.arrivals[i]) / binSeconds; });
    series(m_plot->xAxis, m_plot->yAxis, tr("completions/s"), kCompletions, Qt::SolidLine,
           [&](size_t i) { return double(t.completions[i]) / binSeconds; });
    series(m_plot->xAxis, m_plot->yAxis, tr("goodput/s"), palette().color(QPalette::Text), Qt::DashLine,
           [&](size_t i) { return double(t.good[i]) / binSeconds; });
    if (t.failuresPlaced > 0)
        series(m_plot->xAxis, m_plot->yAxis, tr("failures/s"), kFailures, Qt::SolidLine,
               [&](size_t i) { return double(t.failures[i]) / binSeconds; });
    series(levelsX, levelsY, tr("in flight"), kInFlight, Qt::SolidLine, [&](size_t i) { return t.meanInFlight[i]; });
    if (t.queueObserved > 0)
        series(levelsX, levelsY, tr("in queue"), kQueue, Qt::SolidLine, [&](size_t i) { return t.meanQueueDepth[i]; });
    m_plot->yAxis->rescale();
    levelsY->rescale();
    m_plot->yAxis->setRangeLower(0.0);
    levelsY->setRangeLower(0.0);
    m_plot->yAxis->setRangeUpper(m_plot->yAxis->range().upper * 1.08 + 1e-9);
    levelsY->setRangeUpper(levelsY->range().upper * 1.08 + 1e-9);

    const bool ownPick = m_state->hasSlice() && m_state->sliceLabel() == m_pickLabel;
    m_pickBand->setVisible(ownPick);
    if (ownPick) {
        m_pickBand->topLeft->setCoords(toPlot(m_pickFrom), 0.0);
        m_pickBand->bottomRight->setCoords(toPlot(m_pickTo), 1.0);
    }

    const BurstEnvelope &b = m_result.burst;
    QString text = oneIn > 1 ? tr("In this 1-in-%1 sample (the population's rates and levels are about %1\u00d7 "
                                  "these; View \u2192 Open All Requests Sent in View fetches every request of a "
                                  "range): ")
                                   .arg(oneIn)
                             : QString();
    text += tr("Burst envelope: mean %1 arrivals/s; peak %2 in 1 s (%3\u00d7 the mean, from %4 s), %5 in "
               "10 s.")
                .arg(b.meanPerSecond, 0, 'f', 2)
                .arg(b.peak1s)
                .arg(b.peakToMean1s(), 0, 'f', 1)
                .arg(offset(b.peak1sStartNs - m_result.originNs))
                .arg(b.peak10s);
    const LittlesLawCheck &s = m_result.steadiness;
    text += QLatin1Char(' ');
    text += s.steadinessJudged
        ? (s.steady ? tr("Steady: time in system %1 s early, %2 s late.")
                    : tr("NOT steady: time in system grew from %1 s (first quarter of arrivals) to %2 s (last); a "
                         "backlog built up."))
              .arg(s.earlyTimeInSystemSeconds, 0, 'f', 2)
              .arg(s.lateTimeInSystemSeconds, 0, 'f', 2)
        : tr("Steadiness not judged (arrivals span less than twice the time in system).");
    if (t.failuresPlaced + t.failuresWithoutTime > 0)
        text += QLatin1Char(' ')
            + tr("Failures: %1 dated, %2 undated.").arg(t.failuresPlaced).arg(t.failuresWithoutTime);
    if (t.withoutSend > 0)
        text += QLatin1Char(' ') + tr("%1 requests without a send time are not drawn.").arg(t.withoutSend);
    m_summary->setText(text);
    m_plot->replot();
}

void LoadPanel::followTimeWindow()
{
    if (m_result.timeline.binCount() == 0 || m_refresh->isPending())
        return;
    const TimeWindow window = m_state->timeWindow();
    QCPRange range(toPlot(m_result.timeline.startNs), toPlot(m_result.timeline.endNs()));
    if (m_state->timeAxis() == TimeAxis::Absolute && window.isValid())
        range = QCPRange(toPlot(window.begin), toPlot(window.end));
    m_following = true;
    m_plot->xAxis->setRange(range);
    m_following = false;
    // Queued: the swimlanes move the time window on every pan, zoom and new
    // (live) store; one replot per event-loop turn, not one drawn on the spot.
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LoadPanel::recheckLittle()
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store || m_result.timeline.binCount() == 0) {
        m_little->clear();
        return;
    }
    const bool ownPick = m_state->hasSlice() && m_state->sliceLabel() == m_pickLabel;
    const qint64 from = ownPick ? m_pickFrom : fromPlot(m_plot->xAxis->range().lower);
    const qint64 to = ownPick ? m_pickTo : fromPlot(m_plot->xAxis->range().upper);
    const bool sliced = m_state->hasSlice() && !ownPick;
    RowSet scope = sliced ? m_state->slice() : RowSet();
    const qint64 origin = m_result.originNs;
    m_littleJob.start(
        [=, scope = std::move(scope)](const std::atomic<bool> *) {
            return LoadAnalysis::littleInWindow(store->requests, sliced ? &scope : nullptr, from, to);
        },
        [this, origin, ownPick, oneIn = store->sampleOneIn](LittleInWindow check) {
            QString where = tr("%1 %2 .. %3 s")
                                .arg(ownPick ? tr("picked range") : tr("visible range"), offset(check.fromNs - origin),
                                     offset(check.toNs - origin));
            if (oneIn > 1)
                where += tr(", in the 1-in-%1 sample").arg(oneIn);
            if (check.completions == 0) {
                m_little->setText(tr("Little's law (%1): no request completed inside; not checked.").arg(where));
                return;
            }
            m_little->setText(tr("Little's law (%1): \u03bb %2 req/s \u00d7 W %3 s = %4 expected in flight, %5 "
                                 "observed (%6%7): %8")
                                  .arg(where)
                                  .arg(check.throughputPerSecond, 0, 'f', 2)
                                  .arg(check.meanTimeInSystemSeconds, 0, 'f', 2)
                                  .arg(check.expectedInFlight, 0, 'f', 1)
                                  .arg(check.observedInFlight, 0, 'f', 1)
                                  .arg(check.relativeGap >= 0 ? QStringLiteral("+") : QString())
                                  .arg(QString::number(100.0 * check.relativeGap, 'f', 0) + QLatin1Char('%'))
                                  .arg(check.consistent ? tr("consistent")
                                                        : tr("inconsistent: the range is not steady (ramp-up, "
                                                             "drain or a backlog) or requests never finish")));
        });
}

void LoadPanel::pickRange(qint64 fromNs, qint64 toNs)
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store || toNs <= fromNs)
        return;
    if (fromNs > toNs)
        std::swap(fromNs, toNs);
    m_pickFrom = fromNs;
    m_pickTo = toNs;
    const qint64 origin = m_result.originNs;
    m_pickLabel = tr("arrived %1 .. %2 s").arg(offset(fromNs - origin), offset(toNs - origin));
    // A live refresh picks the same range again in the grown capture.
    m_state->setSlice(LoadAnalysis::arrivedBetween(store->requests, fromNs, toNs), m_pickLabel,
                      [fromNs, toNs](const TraceStore &grown, const RowSet &, qsizetype) -> std::optional<RowSet> {
                          return LoadAnalysis::arrivedBetween(grown.requests, fromNs, toNs);
                      });
}

QString LoadPanel::summaryText() const
{
    QString text = m_summary->text() + QLatin1Char('\n') + m_little->text();
    if (!m_population->isHidden())
        text += QLatin1Char('\n') + m_population->text();
    return text;
}

bool LoadPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Resize) {
        // Five entries in one row need about 620 px; narrower, two rows.
        const int wrap = static_cast<QResizeEvent *>(event)->size().width() < 640 ? 3 : 0;
        if (m_plot->legend->wrap() != wrap) {
            m_plot->legend->setWrap(wrap);
            m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        }
    }
    if (watched != m_plot || m_result.timeline.binCount() == 0)
        return QWidget::eventFilter(watched, event);
    const auto xOf = [this](QMouseEvent *mouse) { return m_plot->xAxis->pixelToCoord(mouse->position().x()); };
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        const bool inside = m_plot->axisRect()->rect().contains(mouse->position().toPoint())
            || m_levels->rect().contains(mouse->position().toPoint());
        if (mouse->button() == Qt::LeftButton && inside) {
            m_dragStart = xOf(mouse);
            return true;
        }
        break;
    }
    case QEvent::MouseMove:
        if (!std::isnan(m_dragStart)) {
            const double x = xOf(static_cast<QMouseEvent *>(event));
            m_pickBand->topLeft->setCoords(qMin(m_dragStart, x), 0.0);
            m_pickBand->bottomRight->setCoords(qMax(m_dragStart, x), 1.0);
            m_pickBand->setVisible(true);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
            return true;
        }
        break;
    case QEvent::MouseButtonRelease:
        if (!std::isnan(m_dragStart)) {
            const double x = xOf(static_cast<QMouseEvent *>(event));
            const double from = qMin(m_dragStart, x);
            const double to = qMax(m_dragStart, x);
            m_dragStart = std::nan("");
            // A click (a few pixels) is not a pick.
            if (m_plot->xAxis->coordToPixel(to) - m_plot->xAxis->coordToPixel(from) >= 4.0)
                pickRange(fromPlot(from), fromPlot(to));
            else
                redraw();
            return true;
        }
        break;
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void LoadPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void LoadPanel::applyPalette()
{
    PlotPalette::apply(m_plot, palette());
    const QColor text = palette().color(QPalette::Text);
    for (QCPAxis *axis : m_levels->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
    }
    QColor band = palette().color(QPalette::Highlight);
    band.setAlpha(60);
    m_pickBand->setBrush(band);
    m_pickBand->setPen(QPen(palette().color(QPalette::Highlight)));
    m_plot->replot();
}
