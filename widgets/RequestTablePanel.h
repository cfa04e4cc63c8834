#pragma once

#include "LatestJob.h"
#include "ViewState.h"
#include "analysis/requests/RequestQuery.h"

#include <QWidget>

class InSightWork;
class QComboBox;
class QItemSelection;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class QToolButton;
class RequestTable;
class RequestTableModel;

// Every request in a table: id, class attributes, tokens, TTFT/ITL/E2E and
// every phase. Typing filters by id or class value, the attribute boxes
// filter by one attribute's value; the filter becomes the ViewState's slice,
// so every aggregate view follows it. A slice set elsewhere (a class table
// cell) is shown here too. Sorting and filtering run off the GUI thread and
// come back as a new row order. Selection is shared through ViewState. A
// live refresh keeps the filter and sort and applies them to the new rows.
class RequestTablePanel : public QWidget
{
    Q_OBJECT
public:
    explicit RequestTablePanel(ViewState *state, QWidget *parent = nullptr);
    ~RequestTablePanel() override;

    RequestTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }

    void setTextFilter(const QString &text); // applies at once (tests, actions)
    void setAttributeFilter(const QString &attribute, const QString &value);
    // The filter as applied (what a session saves).
    QString textFilter() const { return m_query.text; }
    QString filterAttribute() const { return m_query.attribute; }
    QString filterValue() const { return m_query.value; }
    void sortBy(int column, Qt::SortOrder order);
    bool isQueryRunning() const { return m_job.isRunning(); }

signals:
    // The table shows the result of the latest filter / sort.
    void queryFinished();

private:
    void storeChanged();
    // The sort column, when an attribute, by name (its index may move).
    QString sortAttributeName(const RequestTable &table) const;
    void restoreSort(const QString &attribute);
    void runQuery();
    // How the table's filter follows a live refresh (see ViewState::SliceKeeper).
    static ViewState::SliceKeeper filterKeeper(const RequestQuery &query);
    void fillValueCombo();
    void externalSliceChanged();
    void tableSelectionChanged();
    void stateSelectionChanged();
    void updateCountLabel();

    ViewState *m_state = nullptr;
    RequestTableModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_attribute = nullptr;
    QComboBox *m_value = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_sliceNote = nullptr;
    QToolButton *m_clearSlice = nullptr;
    QTimer *m_debounce = nullptr;
    LatestJob m_job{this};
    RequestQuery m_query;
    bool m_writingSlice = false;
    bool m_syncingSelection = false;
    bool m_externalSlice = false;
    bool m_wroteSlice = false; // the slice in place is this table's filter
    // Columns fitted to the rows: after a live refresh out of sight, once looked at.
    InSightWork *m_fitColumns = nullptr;
};
