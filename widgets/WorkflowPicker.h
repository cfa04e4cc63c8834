#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;
class ViewState;
class WorkflowListModel;

// The Workflow dock's list of workflows in the scope, sortable by E2E,
// TTFT, span count, type or id (slowest E2E first), the slow set marked ▲.
// Clicking one shows it; Next / Previous slow (N / P when the dock has the
// focus) step through the slow ones in the list's order. Writes the current
// row (and the exceedance cursor for a slow one) to the ViewState.
class WorkflowPicker : public QWidget
{
    Q_OBJECT
public:
    explicit WorkflowPicker(ViewState *state, QWidget *parent = nullptr);

    // Selects the row of `workflow` without writing to the ViewState.
    void setCurrentWorkflow(qint32 workflow);
    // The next (+1) or previous (-1) slow workflow in the list's order.
    void stepSlow(int direction);

    WorkflowListModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLabel *summary() const { return m_summary; }

private:
    void reload();
    void updateSummary();
    void pick(int row);

    ViewState *m_state = nullptr;
    WorkflowListModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_previous = nullptr;
    QPushButton *m_next = nullptr;
    bool m_selecting = false;
    bool m_columnsFitted = false; // on a store with workflows, since the last non-refresh
};
