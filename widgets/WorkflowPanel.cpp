#include "WorkflowPanel.h"

#include "SpanCategoryColors.h"
#include "ViewState.h"
#include "WhatIfPanel.h"
#include "WorkflowGantt.h"
#include "WorkflowPathModel.h"

#include "analysis/workflows/WhatIf.h"
#include "store/TraceStore.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace {

QString ms(qint64 ns)
{
    return ns == kNoTime ? QStringLiteral("n/a") : QString::number(double(ns) / 1e6, 'f', 2);
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
    top->addWidget(m_pathOnly);
    // The dock is wide and short by default (under the swimlanes): the
    // Gantt takes the full height on the left, the what-if and the path's
    // sections share a column on the right.
    auto *side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_whatIf);
    side->addWidget(m_pathTable);
    side->setStretchFactor(0, 0);
    side->setStretchFactor(1, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_gantt);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});   // relative: 3:2 of whatever width the dock has
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
        showWorkflow(store ? WorkflowAnalysis::slowestWorkflow(*store) : -1);
    });
    connect(state, &ViewState::currentRowChanged, this, &WorkflowPanel::showRow);
    connect(state, &ViewState::rowActivated, this, &WorkflowPanel::showRow);
    m_gantt->setStore(state->store());
    showWorkflow(-1);
}

QString WorkflowPanel::legendHtml(const SpanGraph *graph, bool orphans)
{
    const auto swatch = [](const QColor &colour, const QString &symbol, const QString &label) {
        return QStringLiteral("<span style='color:%1; font-size:large'>%2</span>&nbsp;%3&nbsp;&nbsp; ")
            .arg(colour.name(), symbol, label.toHtmlEscaped());
    };
    QString text;
    std::array<bool, kSpanCategoryCount> present{};
    for (qint32 span = 0; graph && span < graph->spanCount(); ++span)
        present[size_t(graph->category(span))] = true;
    for (int category = 0; category < kSpanCategoryCount; ++category) {
        if (present[size_t(category)])
            text += swatch(SpanCategoryColors::of(SpanCategory(category)), QStringLiteral("\u25a0"),
                           spanCategoryLabel(SpanCategory(category)));
    }
    text += swatch(SpanCategoryColors::criticalPath(), QStringLiteral("\u2582"), tr("critical path"));
    text += swatch(SpanCategoryColors::slack(), QStringLiteral("\u22a2"), tr("slack"));
    text += swatch(SpanCategoryColors::dependency(), QStringLiteral("\u2192"), tr("dependency"));
    if (orphans)
        text += swatch(SpanCategoryColors::orphan(), QStringLiteral("\u25c6"), tr("parent not in trace"));
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
    m_analysisJob.start([store, workflow](const std::atomic<bool> *) { return WorkflowAnalysis::analyse(*store, workflow); },
                        [this](WorkflowAnalysis analysis) { applyAnalysis(std::move(analysis)); });
}

void WorkflowPanel::applyAnalysis(WorkflowAnalysis analysis)
{
    m_analysis = std::move(analysis);
    m_gantt->setAnalysis(m_analysis);
    const SpanGraph *graph = m_analysis.ok() ? &m_analysis.schedule->graph() : nullptr;
    m_legend->setText(legendHtml(graph, hasOrphans(graph)));
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
    m_title->setText(tr("Workflow %1: %2 spans, E2E %3 ms, %4")
                         .arg(m_analysis.workflowId)
                         .arg(graph->spanCount())
                         .arg(ms(m_analysis.timing.e2e()),
                              ttft == kNoTime ? tr("no TTFT (no token time recorded)") : tr("TTFT %1 ms").arg(ms(ttft))));
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
                      [this](WhatIfOutcome outcome) { applyWhatIf(outcome); });
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
