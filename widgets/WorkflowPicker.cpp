#include "WorkflowPicker.h"

#include "CountText.h"
#include "ViewState.h"
#include "WorkflowListModel.h"
#include "store/TraceStore.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

WorkflowPicker::WorkflowPicker(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new WorkflowListModel(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_previous(new QPushButton(tr("\u25c0 Previous slow (P)"), this))
    , m_next(new QPushButton(tr("Next slow (N) \u25b6"), this))
{
    setObjectName(QStringLiteral("workflowPicker"));
    m_view->setObjectName(QStringLiteral("workflowList"));
    m_summary->setObjectName(QStringLiteral("workflowListSummary"));
    m_previous->setObjectName(QStringLiteral("previousSlowWorkflow"));
    m_next->setObjectName(QStringLiteral("nextSlowWorkflow"));
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setSortIndicator(WorkflowListModel::E2e, Qt::DescendingOrder);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Widths from the first 64 rows (slowest first, so the widest numbers),
    // not 1,000: a live store replaces the list 4 times a second, and
    // measuring 1,000 rows' text per column held the GUI thread for 100+ ms.
    m_view->horizontalHeader()->setResizeContentsPrecision(64);
    m_view->horizontalHeader()->setSectionResizeMode(WorkflowListModel::Workflow, QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(WorkflowListModel::Type, QHeaderView::Interactive);
    m_summary->setWordWrap(true);
    for (QPushButton *button : {m_previous, m_next})
        button->setFocusPolicy(Qt::NoFocus);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_previous);
    buttons->addWidget(m_next);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    layout->addWidget(m_view, 1);

    connect(m_previous, &QPushButton::clicked, this, [this] { stepSlow(-1); });
    connect(m_next, &QPushButton::clicked, this, [this] { stepSlow(+1); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!m_selecting && current.isValid())
                    pick(current.row());
            });
    connect(state, &ViewState::storeChanged, this, &WorkflowPicker::reload);
    connect(state, &ViewState::sliceChanged, this, &WorkflowPicker::reload);
    connect(state, &ViewState::exceedanceChanged, this, [this] {
        m_model->setSlow(m_state->exceedance().members);
        updateSummary();
    });
    reload();
}

void WorkflowPicker::reload()
{
    const auto &store = m_state->store();
    m_model->setStore(store && store->workflows.rowCount() > 0 ? store : nullptr, m_state->slice(),
                      !m_state->hasSlice());
    m_model->setSlow(m_state->exceedance().members);
    // A live refresh keeps the widths fitted on the first rows: the same
    // columns, and measuring them was most of this handler's time.
    if (!m_state->isStoreRefresh() || !m_columnsFitted) {
        m_view->resizeColumnToContents(WorkflowListModel::Workflow);
        m_view->setColumnWidth(WorkflowListModel::Workflow,
                               std::min(m_view->columnWidth(WorkflowListModel::Workflow), 140));
        m_view->resizeColumnToContents(WorkflowListModel::Type);
        m_view->setColumnWidth(WorkflowListModel::Type, std::min(m_view->columnWidth(WorkflowListModel::Type), 120));
        m_columnsFitted = m_model->rowCount() > 0;
    }
    updateSummary();
}

void WorkflowPicker::updateSummary()
{
    const QLocale locale;
    qsizetype slow = 0;
    for (int row = 0; row < m_model->rowCount(); ++row)
        slow += m_model->isSlow(row) ? 1 : 0;
    const int count = m_model->rowCount();
    if (count == 0) {
        m_summary->setText(tr("No workflows in the scope."));
    } else {
        const ExceedanceMarks &marks = m_state->exceedance();
        const QString workflows = CountText::of(count, tr("workflow"), tr("workflows"));
        m_summary->setText(
            marks.isEmpty()
                ? tr("%1 in the scope").arg(workflows)
                : tr("%1 in the scope; \u25b2 %2 slow (%3)").arg(workflows, locale.toString(slow), marks.label));
    }
    m_previous->setEnabled(slow > 0);
    m_next->setEnabled(slow > 0);
}

void WorkflowPicker::setCurrentWorkflow(qint32 workflow)
{
    const int row = m_model->rowOfWorkflow(workflow);
    m_selecting = true;
    if (row < 0) {
        m_view->selectionModel()->clearCurrentIndex();
        m_view->clearSelection();
    } else {
        const QModelIndex index = m_model->index(row, WorkflowListModel::E2e);
        m_view->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(index);
    }
    m_selecting = false;
}

void WorkflowPicker::stepSlow(int direction)
{
    const int count = m_model->rowCount();
    const int current = m_view->currentIndex().isValid() ? m_view->currentIndex().row() : (direction > 0 ? -1 : count);
    for (int row = current + direction; row >= 0 && row < count; row += direction) {
        if (m_model->isSlow(row)) {
            setCurrentWorkflow(m_model->workflowAt(row));
            pick(row);
            return;
        }
    }
}

void WorkflowPicker::pick(int row)
{
    const qint32 requestRow = m_model->requestRowAt(row);
    if (m_state->isExceedanceMember(requestRow))
        m_state->setExceedanceCursor(requestRow); // every view follows the step
    else
        m_state->setCurrentRow(requestRow);
}
