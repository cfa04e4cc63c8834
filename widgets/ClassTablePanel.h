#pragma once

#include "LatestJob.h"
#include "ViewState.h"
#include "analysis/classes/ClassDimension.h"
#include "analysis/classes/ClassTable.h"
#include "store/RowSet.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class ClassCdfPlot;
class ClassSplitBar;
class ClassTableModel;
class ClassTableSortModel;
class ColumnCache;
class InSightWork;
class QItemSelection;
class QLabel;
class QTableView;

// The Classes dock: percentiles of the shared metric at the shared boundary
// by one or two class dimensions (attributes, prompt/output band with
// editable edges, cached prefix), with 95% intervals, shares of requests
// and of the exceedance set, an overall row and the mixture warning, plus a
// CDF overlay of the selected classes.
//
// The table is computed on the scope the rest of the window set (the
// ViewState's slice, or the whole trace) off the GUI thread. Selecting
// cells narrows that scope to their requests through the same slice, so
// every view follows; the table itself keeps showing the scope it was
// computed on, and clearing the selection restores that scope.
class ClassTablePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ClassTablePanel(ViewState *state, QWidget *parent = nullptr);
    ~ClassTablePanel() override;

    ClassTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    ClassCdfPlot *cdfPlot() const { return m_cdf; }
    QLabel *mixtureLabel() const { return m_mixture; }
    bool isComputing() const { return m_job.isRunning(); }

    // Splits by these dimension keys (one or two); false if the trace lacks one.
    bool setDimensions(const QStringList &keys);
    QStringList dimensions() const;
    // Band edges as typed ("512, 2k, 8k"); false with the reason on bad input.
    bool setBands(const QString &prompt, const QString &output, QString *error = nullptr);
    // Selects these rows of model() (class cells) as a user would.
    void selectCells(const QList<int> &rows);

signals:
    // A freshly computed table is shown.
    void tableReady();

private:
    struct Result
    {
        ClassTable table;
        std::vector<std::vector<qint32>> cellRows;
        // Held a sample: the table is the server's over its population
        // (fromServer), or the sample's with the server's error.
        bool fromServer = false;
        QString serverError;
    };
    struct Scope
    {
        bool sliced = false;
        RowSet rows;
        QString label;
        bool operator==(const Scope &other) const = default;
    };

    void rebuildDimensions();
    void onSliceChanged();
    void recompute();
    void apply(Result result);
    void onSelectionChanged();
    // Carries a pick of these cells' classes through a live refresh (see
    // ViewState::SliceKeeper).
    ViewState::SliceKeeper pickKeeper(std::vector<QStringList> picked) const;
    void updateCurves();
    void updateStatus();
    // Cells (indices into the table's cells) selected in the view, in view order.
    std::vector<int> selectedCells() const;

    ViewState *m_state = nullptr;
    std::shared_ptr<ColumnCache> m_cache;
    LatestJob m_job{this};
    Scope m_scope;                  // what the table was computed on
    std::optional<Scope> m_written; // the slice this panel set from a selection
    // The classes of the cells picked when a live refresh came: picked again
    // in the table computed on the grown capture, so their filter holds.
    std::vector<QStringList> m_keptPick;
    std::vector<std::vector<qint32>> m_cellRows;
    // How the shown table relates to a held sample (see Result).
    bool m_fromServer = false;
    QString m_serverError;

    ClassSplitBar *m_split = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_mixture = nullptr;
    ClassTableModel *m_model = nullptr;
    ClassTableSortModel *m_sort = nullptr;
    QTableView *m_view = nullptr;
    ClassCdfPlot *m_cdf = nullptr;
    // A live refresh while out of sight: recomputed once it is looked at.
    InSightWork *m_refresh = nullptr;
};
