#include "ComparePanel.h"

#include "ClassSplitBar.h"
#include "ComparisonCdfPlot.h"
#include "ComparisonTableModel.h"
#include "ComparisonVerdictView.h"
#include "InSightWork.h"
#include "PathAttributionView.h"
#include "PhaseShiftBars.h"
#include "SwimlaneView.h"
#include "ViewState.h"
#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/SideBySideStore.h"
#include "analysis/compare/SideNames.h"
#include "analysis/compare/TraceComparison.h"
#include "report/ReportFormat.h"
#include "store/TraceStore.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <tuple>

namespace {

// With nothing picked the plot shows the overall population and the classes
// that moved most, at most this many curves in all.
constexpr int kDefaultCurves = 3;
// The least height of the tab pages (table and CDFs, phase bars, lanes).
constexpr int kMinPageHeight = 160;

QString fileOf(const TraceStore &store)
{
    return store.sourceFiles.isEmpty() ? QStringLiteral("(unnamed)") : QFileInfo(store.sourceFiles.first()).fileName();
}

} // namespace

ComparePanel::ComparePanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_sides(new QLabel(this))
    , m_byClass(new QCheckBox(tr("By class:"), this))
    , m_split(new ClassSplitBar(this))
    , m_percentile(new QDoubleSpinBox(this))
    , m_slo(new QDoubleSpinBox(this))
    , m_predicted(new QLineEdit(this))
    , m_banner(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_model(new ComparisonTableModel(this))
    , m_view(new QTableView(this))
    , m_cdf(new ComparisonCdfPlot(this))
    , m_bars(new PhaseShiftBars(this))
    , m_verdict(new ComparisonVerdictView(this))
    , m_paths(new PathAttributionView(this))
    , m_lanesState(new ViewState(this))
    , m_lanes(new SwimlaneView(m_lanesState, this))
    , m_refresh(new InSightWork(this, [this] { prepare(); }))
{
    setObjectName(QStringLiteral("comparePanel"));
    m_sides->setObjectName(QStringLiteral("compareSides"));
    m_banner->setObjectName(QStringLiteral("compareBanner"));
    m_view->setObjectName(QStringLiteral("compareTableView"));
    m_percentile->setObjectName(QStringLiteral("comparePercentile"));
    m_slo->setObjectName(QStringLiteral("compareSlo"));
    m_predicted->setObjectName(QStringLiteral("comparePredicted"));
    m_byClass->setObjectName(QStringLiteral("compareByClass"));
    m_sides->setWordWrap(true);
    m_sides->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_percentile->setRange(50.0, 99.9);
    m_percentile->setDecimals(1);
    m_percentile->setSingleStep(1.0);
    m_percentile->setValue(95.0);
    m_percentile->setPrefix(QStringLiteral("p"));
    m_percentile->setToolTip(tr("The target percentile every figure is compared at"));
    m_slo->setRange(0.0, 1e7);
    m_slo->setDecimals(1);
    m_slo->setSuffix(QStringLiteral(" ms"));
    m_slo->setSpecialValueText(tr("none"));
    m_slo->setToolTip(tr("Misses count above this SLO (without one: above each class's own baseline percentile); "
                         "with TTFT it is also the goodput guardrail's TTFT objective"));
    m_predicted->setPlaceholderText(tr("e.g. 305"));
    m_predicted->setMaximumWidth(90);
    m_predicted->setToolTip(tr("A saving at the target percentile predicted beforehand (a what-if), in ms; shown "
                               "beside the observed saving"));
    m_byClass->setChecked(true);
    m_byClass->setToolTip(tr("Compare each class as well as the whole population"));

    auto *question = new QHBoxLayout;
    question->addWidget(m_sides, 1);
    question->addSpacing(12);
    question->addWidget(new QLabel(tr("Percentile:"), this));
    question->addWidget(m_percentile);
    question->addSpacing(12);
    question->addWidget(new QLabel(tr("SLO:"), this));
    question->addWidget(m_slo);
    question->addSpacing(12);
    question->addWidget(new QLabel(tr("Predicted saving (ms):"), this));
    question->addWidget(m_predicted);
    auto *split = new QHBoxLayout;
    split->addWidget(m_byClass, 0, Qt::AlignTop);
    split->addWidget(m_split, 1);

    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setMargin(4);

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->setWordWrap(false);
    auto *difference = new QSplitter(Qt::Horizontal, this);
    difference->addWidget(m_view);
    difference->addWidget(m_cdf);
    difference->setStretchFactor(0, 3);
    difference->setStretchFactor(1, 2);
    difference->setSizes({700, 420});
    m_tabs->addTab(difference, tr("Difference"));
    m_tabs->addTab(m_bars, tr("Phase shift"));
    m_tabs->addTab(m_verdict, tr("Stop rule && workload"));
    m_tabs->addTab(m_lanes, tr("Lanes, both sides"));
    m_tabs->addTab(m_paths, tr("Critical path"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_paths),
                          tr("Workflow traces: the candidate's mean E2E (or TTFT) minus the baseline's, split exactly "
                             "over critical-path time by key"));
    m_tabs->setTabEnabled(m_tabs->indexOf(m_paths), false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(question);
    layout->addLayout(split);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);

    // Both sides on one axis: each lane starts at its request's send, grouped by side.
    m_lanesState->setTimeAxis(TimeAxis::AlignedAtSend);

    connect(m_split, &ClassSplitBar::splitChanged, this, &ComparePanel::prepare);
    connect(m_split, &ClassSplitBar::metricPicked, m_state, &ViewState::setMetric);
    connect(m_byClass, &QCheckBox::toggled, this, [this](bool on) {
        m_split->setEnabled(on);
        prepare();
    });
    connect(m_percentile, &QDoubleSpinBox::valueChanged, this, &ComparePanel::evaluate);
    connect(m_slo, &QDoubleSpinBox::valueChanged, this, &ComparePanel::evaluate);
    connect(m_predicted, &QLineEdit::editingFinished, this, &ComparePanel::evaluate);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ComparePanel::updateCurves);
    connect(m_tabs, &QTabWidget::currentChanged, this, &ComparePanel::updateLanes);
    // The pages take the height the dock leaves them, never less than
    // kMinPageHeight: QTabWidget asks every page, and the lanes page alone
    // would make the panel ~660 px tall and scroll the CDFs out of sight.
    // 160 px: at 1280x720 the dock has ~300 px, the controls take ~140.
    m_tabs->setMinimumHeight(kMinPageHeight);
    m_tabs->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    connect(m_paths, &PathAttributionView::keyKindChanged, this, &ComparePanel::prepare);
    connect(m_lanes, &SwimlaneView::layoutReady, this, &ComparePanel::lanesReady);
    connect(state, &ViewState::storeChanged, this, &ComparePanel::rebuildDimensions);
    connect(state, &ViewState::candidateChanged, this, &ComparePanel::prepare);
    connect(state, &ViewState::boundaryChanged, this, &ComparePanel::prepare);
    connect(state, &ViewState::metricChanged, this, [this](Metric metric) {
        m_split->showMetric(metric);
        prepare();
    });
    m_split->showMetric(state->metric());
    rebuildDimensions();
}

ComparePanel::~ComparePanel() = default;

bool ComparePanel::isComputing() const
{
    return m_prepareJob.isRunning() || m_evaluateJob.isRunning() || m_lanesJob.isRunning() || m_lanes->isLayingOut();
}

QString ComparePanel::bannerText() const
{
    return m_banner->text();
}

bool ComparePanel::setDimensions(const QStringList &keys)
{
    if (keys.isEmpty()) {
        m_byClass->setChecked(false);
        return true;
    }
    const bool ok = m_split->setKeys(keys);
    m_byClass->setChecked(true);
    prepare();
    return ok;
}

void ComparePanel::setPercentile(double q)
{
    m_percentile->setValue(q * 100.0);
}

void ComparePanel::setSloMs(double ms)
{
    m_slo->setValue(ms);
}

void ComparePanel::setPredictedSavingMs(double ms)
{
    m_predicted->setText(std::isfinite(ms) ? QString::number(ms, 'g', 10) : QString());
    evaluate();
}

ComparisonSpec ComparePanel::spec() const
{
    ComparisonSpec spec;
    spec.metric = m_state->metric();
    spec.boundary = m_state->boundary();
    if (m_byClass->isChecked()) {
        for (const QString &key : m_split->keys()) {
            if (!key.isEmpty())
                spec.by << key;
        }
    }
    spec.bands = m_split->bands();
    spec.pathKey = m_paths->keyKind();
    spec.q = m_percentile->value() / 100.0;
    if (m_slo->value() > 0.0)
        spec.sloMs = m_slo->value();
    bool ok = false;
    const double predicted = QLocale().toDouble(m_predicted->text(), &ok);
    const double plain = m_predicted->text().toDouble();
    if (ok)
        spec.predictedSavingMs = predicted;
    else if (!m_predicted->text().trimmed().isEmpty() && std::isfinite(plain))
        spec.predictedSavingMs = plain;
    return spec;
}

void ComparePanel::selectRows(const QList<int> &rows)
{
    QItemSelection selection;
    for (const int row : rows)
        selection.select(m_model->index(row, 0), m_model->index(row, ComparisonTableModel::ColumnCount - 1));
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void ComparePanel::rebuildDimensions()
{
    m_split->setTable(m_state->requests());
    m_refresh->run(m_state->isStoreRefresh());
}

void ComparePanel::showIdle(const QString &message)
{
    m_prepareJob.cancel();
    m_evaluateJob.cancel();
    m_samples.reset();
    m_model->clear();
    m_cdf->setCurves({}, m_state->metric(), m_state->boundary(), spec().q, 0.0);
    m_bars->setShift({});
    m_verdict->showMessage(message);
    m_paths->clear();
    m_tabs->setTabEnabled(m_tabs->indexOf(m_paths), false);
    m_banner->setText(message);
    m_banner->setStyleSheet({});
}

void ComparePanel::prepare()
{
    if (m_refresh->isPending())
        return; // out of sight since a live refresh: done once looked at
    const auto baseline = m_state->store();
    const auto candidate = m_state->candidate();
    m_lanesStale = true;
    if (!baseline || !candidate) {
        m_sides->setText(baseline
                             ? tr("Baseline: %1. Put a candidate beside it with File \u2192 Compare With\u2026 "
                                  "(or drop a second file while holding Shift).")
                                   .arg(fileOf(*baseline))
                             : tr("Open a trace (the baseline), then File \u2192 Compare With\u2026 a candidate."));
        showIdle(tr("No comparison yet."));
        updateLanes();
        return;
    }
    const QLocale locale;
    // Two runs of one benchmark often write the same file name: each side is
    // then named by the shortest tail of its path that tells them apart.
    QString baselineLabel = fileOf(*baseline);
    QString candidateLabel = m_state->candidateLabel();
    if (!baseline->sourceFiles.isEmpty() && !candidate->sourceFiles.isEmpty())
        std::tie(baselineLabel, candidateLabel)
            = SideNames::distinguish(baseline->sourceFiles.first(), candidate->sourceFiles.first());
    m_sides->setText(tr("<b>Baseline:</b> %1 (%2 requests) &nbsp; <b>Candidate:</b> %3 (%4 requests)")
                         .arg(baselineLabel.toHtmlEscaped(), locale.toString(baseline->requests.rowCount()),
                              candidateLabel.toHtmlEscaped(), locale.toString(candidate->requests.rowCount())));
    m_banner->setText(tr("Comparing\u2026"));
    m_banner->setStyleSheet({});
    const ComparisonSpec wanted = spec();
    m_evaluateJob.cancel();
    m_prepareJob.start(
        [baseline, candidate, wanted, baselineLabel, candidateLabel](const std::atomic<bool> *cancelled) {
            return ComparisonSamples::prepare(ComparisonSide::whole(baseline, baselineLabel),
                                              ComparisonSide::whole(candidate, candidateLabel), wanted, cancelled);
        },
        [this](std::shared_ptr<const ComparisonSamples> samples) {
            m_samples = std::move(samples);
            evaluate();
        });
    updateLanes();
}

void ComparePanel::evaluate()
{
    if (!m_samples)
        return;
    const ComparisonSpec wanted = spec();
    if (!m_samples->spec.samePreparation(wanted)) {
        prepare();
        return;
    }
    m_evaluateJob.start([samples = m_samples,
                         wanted](const std::atomic<bool> *) { return TraceComparison::evaluate(*samples, wanted); },
                        [this](TraceComparison comparison) { apply(std::move(comparison)); });
}

void ComparePanel::apply(TraceComparison comparison)
{
    m_model->setComparison(std::move(comparison));
    const TraceComparison &shown = m_model->comparison();
    m_bars->setShift(shown.phaseShift);
    m_verdict->setComparison(shown);
    const bool paths = shown.workflows && shown.workflows->paths;
    if (paths)
        m_paths->setAttribution(*shown.workflows->paths);
    else
        m_paths->clear();
    m_tabs->setTabEnabled(m_tabs->indexOf(m_paths), paths);
    updateBanner();
    updateCurves();
    emit comparisonReady();
}

void ComparePanel::updateBanner()
{
    const TraceComparison &comparison = m_model->comparison();
    if (!comparison.ok()) {
        m_banner->setText(tr("Cannot compare: %1").arg(comparison.error));
        m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fde8e8; color: #7a0010; border: 1px solid "
                                               "#c00020; }"));
        return;
    }
    const ComparisonStopRule &rule = comparison.stopRule;
    QString symbol;
    QString colours;
    switch (rule.outcome) {
    case ComparisonStopRule::Outcome::Worked:
        symbol = QStringLiteral("\u2714");
        colours = QStringLiteral("background: #d9f2ea; color: #00513b; border: 1px solid #009E73;");
        break;
    case ComparisonStopRule::Outcome::DidNotWork:
        symbol = QStringLiteral("\u2718");
        colours = QStringLiteral("background: #fbe3d4; color: #6b2a00; border: 1px solid #D55E00;");
        break;
    case ComparisonStopRule::Outcome::Inconclusive:
        symbol = QStringLiteral("?");
        colours = QStringLiteral("background: #eeeeee; color: #333333; border: 1px solid #999999;");
        break;
    }
    QString headline = ComparisonStopRule::outcomeLabel(rule.outcome).toUpper();
    if (rule.outcome == ComparisonStopRule::Outcome::Worked && rule.phase == ComparisonStopRule::Check::NotJudged)
        headline += tr(" at the target (the suspected phase was not checked)");
    QString text = QStringLiteral("%1 %2 \u2014 %3").arg(symbol, headline, rule.reasons.value(0));
    const QStringList warnings = comparison.workload.warnings();
    if (!warnings.isEmpty())
        text += QStringLiteral("\n\u26a0 ") + warnings.first()
            + (warnings.size() > 1 ? tr(" (and %1 more: see Stop rule & workload)").arg(warnings.size() - 1)
                                   : QString());
    m_banner->setText(text);
    m_banner->setStyleSheet(QStringLiteral("QLabel { %1 }").arg(colours));
}

void ComparePanel::updateCurves()
{
    const TraceComparison &comparison = m_model->comparison();
    std::vector<ComparisonCdfPlot::Curve> curves;
    if (m_samples && comparison.ok()) {
        QList<int> rows;
        for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
            rows << index.row();
        std::sort(rows.begin(), rows.end());
        if (rows.isEmpty()) {
            // The overall population, then the classes that moved most.
            rows << m_model->overallRow();
            std::vector<std::pair<double, int>> moved;
            for (int row = 0; row < m_model->overallRow(); ++row) {
                const auto &cell = comparison.cells[size_t(row)];
                if (!cell.oneSided() && std::isfinite(cell.difference.differenceMs))
                    moved.emplace_back(-std::abs(cell.difference.differenceMs), row);
            }
            std::sort(moved.begin(), moved.end());
            for (size_t i = 0; i < moved.size() && rows.size() < kDefaultCurves; ++i)
                rows << moved[i].second;
        }
        for (const int row : rows) {
            const int cell = m_model->cellOfRow(row);
            const ComparisonCell &entry = cell < 0 ? comparison.overall : comparison.cells[size_t(cell)];
            curves.push_back(
                {entry.label(), m_samples->cdf(cell, false), m_samples->cdf(cell, true), entry.difference});
        }
    }
    const ComparisonSpec &spec = comparison.spec;
    m_cdf->setCurves(std::move(curves), spec.metric, comparison.observedBoundary, spec.q,
                     std::isfinite(spec.sloMs) ? spec.sloMs : 0.0);
}

void ComparePanel::updateLanes()
{
    // Merging both sides is a copy of every request: only for the Lanes tab.
    if (m_tabs->currentWidget() != m_lanes || !m_lanesStale)
        return;
    m_lanesStale = false;
    const auto baseline = m_state->store();
    const auto candidate = m_state->candidate();
    if (!baseline || !candidate) {
        m_lanesJob.cancel();
        m_lanesState->setStore(nullptr);
        return;
    }
    LaneOrder order;
    order.key = LaneOrder::Key::Metric;
    order.metric = m_state->metric();
    order.boundary = m_state->boundary();
    order.descending = true;
    order.groupBy = SideBySideStore::sideAttribute();
    m_lanesJob.start(
        [baseline, candidate](const std::atomic<bool> *cancelled) -> std::shared_ptr<const TraceStore> {
            return SideBySideStore::merge(ComparisonSide::whole(baseline, fileOf(*baseline)),
                                          ComparisonSide::whole(candidate, QString()), cancelled);
        },
        [this, order](std::shared_ptr<const TraceStore> merged) {
            m_lanesState->setStore(std::move(merged));
            m_lanesState->setBoundary(order.boundary);
            m_lanesState->setTimeAxis(TimeAxis::AlignedAtSend);
            m_lanes->setLaneOrder(order);
        });
}
