#include "WorkflowPanel.h"

#include "SpanCategoryColors.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkKindColors.h"
#include "WorkflowGantt.h"
#include "WorkflowPathModel.h"
#include "WorkflowPicker.h"

#include "analysis/workflows/LongLivedStreams.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "analysis/workflows/WhatIf.h"
#include "analysis/workflows/WorkKinds.h"
#include "store/TraceStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace {

// "5986.00 ms"; under a millisecond in µs ("5.0 µs"), which two decimals
// of ms would show as 0.01 ms.
QString duration(qint64 ns)
{
    if (ns == kNoTime)
        return QStringLiteral("n/a");
    if (ns > -1'000'000 && ns < 1'000'000)
        return QString::number(double(ns) / 1e3, 'f', 1) + QStringLiteral(" \u00b5s");
    return QString::number(double(ns) / 1e6, 'f', 2) + QStringLiteral(" ms");
}

} // namespace

WorkflowPanel::WorkflowPanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_analysisJob(this)
    , m_whatIfJob(this)
    , m_title(new QLabel(this))
    , m_legend(new QLabel(this))
    , m_pathOnly(new QCheckBox(tr("Critical path only"), this))
    , m_gantt(new WorkflowGantt(this))
    , m_pathModel(new WorkflowPathModel(this))
    , m_pathTable(new QTableView(this))
    , m_whatIf(new WhatIfPanel(this))
    , m_picker(new WorkflowPicker(state, this))
{
    setObjectName(QStringLiteral("workflowPanel"));
    m_title->setObjectName(QStringLiteral("workflowTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_legend->setObjectName(QStringLiteral("workflowLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_pathOnly->setObjectName(QStringLiteral("criticalPathOnly"));
    m_pathTable->setObjectName(QStringLiteral("criticalPathTable"));
    m_pathTable->setModel(m_pathModel);
    m_pathTable->verticalHeader()->hide();
    m_pathTable->verticalHeader()->setDefaultSectionSize(m_pathTable->fontMetrics().height() + 6);
    m_pathTable->setWordWrap(false);
    m_pathTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_pathTable->horizontalHeader()->setSectionResizeMode(WorkflowPathModel::SpanColumn, QHeaderView::Stretch);
    m_pathTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_pathTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_pathTable->setEditTriggers(QAbstractItemView::NoEditTriggers);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(createTailControls());
    top->addWidget(m_pathOnly);
    // The dock is wide and short by default (under the swimlanes): the
    // Gantt takes the full height on the left, the what-if and the path's
    // sections share a column on the right.
    auto *side = m_side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_whatIf);
    side->addWidget(m_pathTable);
    side->setStretchFactor(0, 0);
    side->setStretchFactor(1, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_picker);
    split->addWidget(m_gantt);
    split->addWidget(side);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);
    split->setCollapsible(1, false);
    split->setSizes({250, 600, 400}); // relative: of whatever width the dock has
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_legend);
    layout->addWidget(split, 1);

    connect(m_pathOnly, &QCheckBox::toggled, m_gantt, &WorkflowGantt::setCriticalPathOnly);
    connect(m_gantt, &WorkflowGantt::spanSelected, m_whatIf, &WhatIfPanel::setTargetSpan);
    connect(m_whatIf, &WhatIfPanel::editsChanged, this, &WorkflowPanel::runWhatIf);
    connect(m_pathTable, &QTableView::clicked, this, [this](const QModelIndex &index) {
        m_gantt->setSelectedSpan(index.data(WorkflowPathModel::SpanRole).toInt());
    });
    connect(state, &ViewState::storeChanged, this, [this] {
        const auto store = m_state->store();
        m_gantt->setStore(store);
        showRepresentativeWorkflow();
    });
    connect(state, &ViewState::currentRowChanged, this, &WorkflowPanel::showRow);
    connect(state, &ViewState::rowActivated, this, &WorkflowPanel::showRow);
    m_gantt->setStore(state->store());
    showWorkflow(-1);
}

QString WorkflowPanel::legendHtml(const WorkflowSchedule *schedule, bool orphans)
{
    const auto swatch = [](const QColor &colour, const QString &symbol, const QString &label) {
        return QStringLiteral("<span style='color:%1; font-size:large'>%2</span>&nbsp;%3&nbsp;&nbsp; ")
            .arg(colour.name(), symbol, label.toHtmlEscaped());
    };
    QString text;
    // The kinds the bars show: each span's, and a model call's phases.
    std::array<bool, kWorkKindCount> present{};
    std::vector<WorkPiece> pieces;
    for (qint32 span = 0; schedule && span < schedule->graph().spanCount(); ++span) {
        const SpanGraph &graph = schedule->graph();
        const WorkKind kind = WorkKinds::ofSpan(graph, schedule->tree(), span);
        pieces.clear();
        WorkKinds::split(graph, span, kind, graph.start(span), graph.end(span), pieces);
        if (pieces.empty()) // a span of no duration
            present[size_t(kind)] = true;
        for (const WorkPiece &piece : pieces)
            present[size_t(piece.kind)] = true;
    }
    for (int kind = 0; kind < kWorkKindCount; ++kind) {
        if (present[size_t(kind)])
            text += swatch(WorkKindColors::of(WorkKind(kind)), QStringLiteral("\u25a0"), workKindLabel(WorkKind(kind)));
    }
    text += swatch(SpanCategoryColors::criticalPath(), QStringLiteral("\u2582"), tr("critical path"));
    text += swatch(SpanCategoryColors::slack(), QStringLiteral("\u22a2"), tr("slack"));
    text += swatch(SpanCategoryColors::dependency(), QStringLiteral("\u2192"), tr("dependency"));
    if (orphans)
        text += swatch(SpanCategoryColors::orphan(), QStringLiteral("\u25c6"), tr("parent not in trace"));
    text += swatch(WorkflowGantt::unusualColour(), QStringLiteral("\u25a1"), tr("unusual duration"));
    return text;
}

bool WorkflowPanel::hasOrphans(const SpanGraph *graph) const
{
    const auto &store = m_state->store();
    for (qint32 span = 0; store && graph && span < graph->spanCount(); ++span) {
        const qint32 row = graph->sourceRow(span);
        if (row >= 0 && row < store->spans.rowCount() && (store->spans.flags(row) & SpanTable::Orphan))
            return true;
    }
    return false;
}

void WorkflowPanel::showRow(qint32 row)
{
    const auto &store = m_state->store();
    if (!store || row < 0)
        return;
    const qint32 workflow = WorkflowAnalysis::workflowOfRequestRow(*store, row);
    if (workflow >= 0 && workflow != m_workflow)
        showWorkflow(workflow);
}

void WorkflowPanel::showWorkflow(qint32 workflow)
{
    m_whatIfJob.cancel();
    m_workflow = workflow;
    const auto store = m_state->store();
    if (!store || workflow < 0 || workflow >= store->workflows.rowCount()) {
        m_analysisJob.cancel();
        m_workflow = -1;
        applyAnalysis({});
        return;
    }
    m_title->setText(tr("Workflow %1: analysing…").arg(store->workflows.traceIdText(workflow)));
    m_analysisJob.start(
        [store, workflow](const std::atomic<bool> *) { return WorkflowAnalysis::analyse(*store, workflow); },
        [this](WorkflowAnalysis analysis) { applyAnalysis(std::move(analysis)); });
}

void WorkflowPanel::showRepresentativeWorkflow()
{
    m_whatIfJob.cancel();
    m_longLived.clear();
    const auto store = m_state->store();
    if (!store || store->workflows.rowCount() == 0) {
        showWorkflow(-1);
        return;
    }
    m_workflow = -1;
    m_title->setText(tr("Finding a representative slow workflow\u2026"));
    // The exceedance set sorts every workflow's metric: off the GUI thread.
    const Metric metric = m_state->metric();
    const Boundary boundary = m_state->boundary();
    struct Result
    {
        WorkflowAnalysis analysis;
        std::vector<quint8> longLived;
    };
    m_analysisJob.start(
        [store, metric, boundary](const std::atomic<bool> *) {
            Result result;
            result.analysis
                = WorkflowAnalysis::analyse(*store, WorkflowAnalysis::representativeWorkflow(*store, metric, boundary));
            result.longLived = LongLivedStreams::find(*store);
            return result;
        },
        [this](Result result) {
            m_longLived = std::move(result.longLived);
            m_workflow = result.analysis.workflow;
            applyAnalysis(std::move(result.analysis));
        });
}

void WorkflowPanel::applyAnalysis(WorkflowAnalysis analysis)
{
    m_analysis = std::move(analysis);
    m_gantt->setAnalysis(m_analysis);
    const SpanGraph *graph = m_analysis.ok() ? &m_analysis.schedule->graph() : nullptr;
    m_legend->setText(legendHtml(m_analysis.schedule.get(), hasOrphans(graph)));
    m_whatIf->setGraph(m_analysis.ok() ? m_analysis.schedule->sharedGraph() : nullptr);
    m_whatIf->setEnabled(m_analysis.ok());
    if (!m_analysis.ok()) {
        m_pathModel->clear();
        m_title->setText(m_workflow < 0 ? tr("No workflow selected")
                                        : tr("Workflow %1: %2").arg(m_analysis.workflowId, m_analysis.error));
        emit analysisShown(m_workflow);
        return;
    }
    m_pathModel->setPath(m_analysis.schedule, m_analysis.path, m_analysis.timing);
    const qint64 ttft = m_analysis.timing.ttft();
    m_title->setText(
        tr("Workflow %1: %2 spans, E2E %3, %4")
            .arg(m_analysis.workflowId)
            .arg(graph->spanCount())
            .arg(duration(m_analysis.timing.e2e()),
                 ttft == kNoTime ? tr("no TTFT (no token time recorded)") : tr("TTFT %1").arg(duration(ttft))));
    if (m_workflow >= 0 && size_t(m_workflow) < m_longLived.size() && m_longLived[size_t(m_workflow)])
        m_title->setText(m_title->text()
                         + tr(" \u2014 a long-lived stream (one span, no children, far longer than the rest): "
                              "its length is how long a connection stayed open, not a request"));
    emit analysisShown(m_workflow);
}

void WorkflowPanel::runWhatIf()
{
    if (!m_analysis.ok())
        return;
    const auto edits = m_whatIf->edits();
    if (edits.empty()) {
        m_whatIfJob.cancel();
        m_gantt->clearWhatIf();
        m_pathModel->setPath(m_analysis.schedule, m_analysis.path, m_analysis.timing);
        m_whatIf->showMessage(QString());
        emit whatIfShown();
        return;
    }
    const auto schedule = m_analysis.schedule;
    m_whatIfJob.start([schedule, edits](const std::atomic<bool> *) { return WhatIf::run(*schedule, edits); },
                      [this](const WhatIfOutcome &outcome) { applyWhatIf(outcome); });
}

void WorkflowPanel::applyWhatIf(const WhatIfOutcome &outcome)
{
    m_whatIf->showOutcome(outcome);
    if (outcome.ok()) {
        m_gantt->showWhatIf(outcome);
        m_pathModel->setPath(m_analysis.schedule, outcome.pathAfter, outcome.after);
    }
    emit whatIfShown();
}

QWidget *WorkflowPanel::createTailControls()
{
    auto *box = new QWidget(this);
    m_unusual = new QCheckBox(tr("Mark spans above"), box);
    m_unusualPercentile = new QDoubleSpinBox(box);
    m_unusualKey = new QComboBox(box);
    m_unusual->setObjectName(QStringLiteral("markUnusualSpans"));
    m_unusualPercentile->setObjectName(QStringLiteral("unusualPercentile"));
    m_unusualKey->setObjectName(QStringLiteral("unusualKey"));
    m_unusual->setChecked(true);
    m_unusual->setToolTip(tr("Outline the spans whose duration is at or above this percentile of the spans with the "
                             "same key in the rest of the scope (outside the slow set)"));
    m_unusualPercentile->setRange(50.0, 99.9);
    m_unusualPercentile->setDecimals(1);
    m_unusualPercentile->setValue(95.0);
    m_unusualPercentile->setPrefix(QStringLiteral("p"));
    m_unusualKey->addItem(tr("of their name in the rest"), int(SpanKeyKind::Name));
    m_unusualKey->addItem(tr("of their operation in the rest"), int(SpanKeyKind::Operation));
    m_unusualKey->addItem(tr("of their service in the rest"), int(SpanKeyKind::Service));
    m_unusualKey->addItem(tr("of their kind in the rest"), int(SpanKeyKind::Kind));
    auto *layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_unusual);
    layout->addWidget(m_unusualPercentile);
    layout->addWidget(m_unusualKey);

    const auto remark
        = [this] { m_gantt->setUnusualThreshold(m_unusual->isChecked() ? m_unusualPercentile->value() : -1.0); };
    connect(m_unusual, &QCheckBox::toggled, this, remark);
    connect(m_unusualPercentile, &QDoubleSpinBox::valueChanged, this, remark);
    connect(m_unusualKey, &QComboBox::currentIndexChanged, this, &WorkflowPanel::recomputeUnusual);
    connect(this, &WorkflowPanel::analysisShown, this, [this](qint32 workflow) {
        m_picker->setCurrentWorkflow(workflow);
        recomputeUnusual();
    });
    connect(m_state, &ViewState::storeChanged, this, [this] {
        m_keys.reset();
        m_unusualSpans = {};
        m_populationJob.cancel();
        m_whatIf->showPopulationMessage(QString());
    });
    connect(m_state, &ViewState::exceedanceChanged, this, &WorkflowPanel::recomputeUnusual);
    connect(m_state, &ViewState::sliceChanged, this, [this] {
        recomputeUnusual();
        runPopulationWhatIf();
    });
    connect(m_whatIf, &WhatIfPanel::editsChanged, this, &WorkflowPanel::runPopulationWhatIf);
    connect(this, &WorkflowPanel::whatIfShown, this, &WorkflowPanel::fitWhatIf);
    connect(this, &WorkflowPanel::populationShown, this, &WorkflowPanel::fitWhatIf);
    for (QWidget *stepping : {static_cast<QWidget *>(m_picker->view()), static_cast<QWidget *>(m_gantt),
                              static_cast<QWidget *>(m_pathTable)})
        stepping->installEventFilter(this);
    connect(m_whatIf, &WhatIfPanel::populationChanged, this, &WorkflowPanel::runPopulationWhatIf);
    return box;
}

namespace {

bool isStepKey(const QEvent *event)
{
    if (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride)
        return false;
    const auto *key = static_cast<const QKeyEvent *>(event);
    return key->modifiers() == Qt::NoModifier && (key->key() == Qt::Key_N || key->key() == Qt::Key_P);
}

} // namespace

void WorkflowPanel::keyPressEvent(QKeyEvent *event)
{
    if (isStepKey(event)) {
        m_picker->stepSlow(event->key() == Qt::Key_N ? +1 : -1);
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool WorkflowPanel::eventFilter(QObject *watched, QEvent *event)
{
    // With the focus in the picker, the Gantt or the path table, N / P step
    // through the slow workflows in the picker's order: the key is claimed
    // before the window-wide N / P (which steps in the set's order) and
    // before the list's type-ahead search. Both move the same cursor.
    if (isStepKey(event)) {
        event->accept();
        if (event->type() == QEvent::KeyPress)
            m_picker->stepSlow(static_cast<QKeyEvent *>(event)->key() == Qt::Key_N ? +1 : -1);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void WorkflowPanel::fitWhatIf()
{
    QList<int> sizes = m_side->sizes();
    const int wanted = m_whatIf->sizeHint().height();
    if (sizes.size() != 2 || sizes[0] >= wanted)
        return;
    const int total = sizes[0] + sizes[1];
    sizes[0] = std::min(wanted, total - 60); // the path table keeps a few rows
    sizes[1] = total - sizes[0];
    m_side->setSizes(sizes);
}

std::vector<qint32> WorkflowPanel::restRows() const
{
    std::vector<qint32> rows;
    const RowSet scope = m_state->rowsInScope();
    const RowSet &slow = m_state->exceedance().members;
    for (const qint32 row : scope.rows()) {
        if (!slow.contains(row))
            rows.push_back(row);
    }
    return rows;
}

void WorkflowPanel::recomputeUnusual()
{
    const auto store = m_state->store();
    if (!store || m_workflow < 0 || !m_analysis.ok()) {
        m_unusualJob.cancel();
        m_unusualSpans = {};
        m_gantt->setUnusual({}, {}, QString());
        return;
    }
    const auto kind = SpanKeyKind(m_unusualKey->currentData().toInt());
    auto keys = m_keys && m_keys->kind() == kind ? m_keys : nullptr;
    struct Result
    {
        std::shared_ptr<const SpanKeys> keys;
        UnusualSpans spans;
        qint32 workflow = -1;
    };
    m_unusualJob.start(
        [store, keys, kind, workflow = m_workflow, rest = restRows()](const std::atomic<bool> *) {
            Result result;
            result.keys = keys ? keys : std::make_shared<const SpanKeys>(SpanKeys::build(*store, kind));
            result.spans = UnusualSpans::compute(*store, *result.keys, workflow, rest);
            result.workflow = workflow;
            return result;
        },
        [this](Result result) {
            m_keys = std::move(result.keys);
            if (result.workflow != m_workflow)
                return;
            m_unusualSpans = std::move(result.spans);
            m_gantt->setUnusual(m_unusualSpans.rank, m_unusualSpans.restSamples, m_unusualKey->currentText());
            m_gantt->setUnusualThreshold(m_unusual->isChecked() ? m_unusualPercentile->value() : -1.0);
            emit unusualSpansShown();
        });
}

void WorkflowPanel::runPopulationWhatIf()
{
    const auto store = m_state->store();
    const auto edits = m_whatIf->populationEdits();
    if (!store || !m_whatIf->appliesToPopulation() || edits.empty()) {
        m_populationJob.cancel();
        if (m_whatIf->appliesToPopulation())
            m_whatIf->showPopulationMessage(edits.empty() ? tr("Choose a change above to apply it to every workflow.")
                                                          : QString());
        return;
    }
    std::vector<qint32> workflowOfRow(size_t(store->requests.rowCount()), -1);
    for (qint32 w = 0; w < qint32(store->workflows.rowCount()); ++w) {
        if (const qint32 row = store->workflows.requestRow[size_t(w)]; row >= 0 && size_t(row) < workflowOfRow.size())
            workflowOfRow[size_t(row)] = w;
    }
    std::vector<qint32> workflows;
    const RowSet scope = m_state->rowsInScope();
    for (const qint32 row : scope.rows()) {
        if (const qint32 w = workflowOfRow[size_t(row)]; w >= 0)
            workflows.push_back(w);
    }
    m_whatIf->showPopulationMessage(
        tr("Re-scheduling %1 workflows\u2026").arg(QLocale().toString(qint64(workflows.size()))));
    struct Result
    {
        PopulationWhatIfResult population;
        qint64 workflows = 0;
    };
    m_populationJob.start(
        [store, edits, workflows, q = m_whatIf->populationPercentile()](const std::atomic<bool> *cancel) {
            const SpanGraphBuilder builder(*store);
            PopulationWhatIf population(edits);
            for (const qint32 w : workflows) {
                if (cancel->load(std::memory_order_relaxed))
                    return Result{};
                QString error;
                const auto schedule = WorkflowSchedule::build(builder.build(w), &error);
                if (schedule)
                    population.add(*schedule);
                else
                    population.addFailure(store->workflows.traceIdText(w), error);
            }
            return Result{population.result(q), qint64(workflows.size())};
        },
        [this](const Result &result) {
            m_whatIf->showPopulation(result.population, result.workflows);
            emit populationShown();
        });
}
