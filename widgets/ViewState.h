#pragma once

#include "ExceedanceMarks.h"
#include "TimeWindow.h"
#include "analysis/requests/Boundary.h"
#include "analysis/requests/Metric.h"
#include "store/RowSet.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class RequestTable;
class TraceStore;

// The one place that says what the user is looking at: the loaded trace, the
// observation boundary and metric, the visible time window, the selected and
// current request, the active slice (filter) and the exceedance set with its
// cursor. Every view observes it and writes to it; views never talk to each
// other. Setters emit their signal only when the value actually changes, so
// a view can write back what it just received without starting a loop.
//
// Rows are indices into store()->requests; a new store resets every row-based
// state (selection, current row, slice, exceedance) without emitting their
// individual signals: observers rebuild on storeChanged().
class ViewState : public QObject
{
    Q_OBJECT
public:
    explicit ViewState(QObject *parent = nullptr);
    ~ViewState() override;

    // The trace -------------------------------------------------------------
    const std::shared_ptr<const TraceStore> &store() const { return m_store; }
    // nullptr while nothing is loaded.
    const RequestTable *requests() const;
    qsizetype requestCount() const;
    void setStore(std::shared_ptr<const TraceStore> store);
    // A live refresh: the same capture with more received since (LiveWiring).
    // While its storeChanged() is delivered, isStoreRefresh() is true: views
    // out of sight may leave their rebuild until they are looked at
    // (InSightWork); a trace opened in their place never is a refresh.
    // `rowsKept` says the new store's first rows are the old store's
    // requests in the same order (nothing evicted or reordered since): the
    // selection and the current request then stay, and
    // refreshKeepsRows() tells views their row-based state still holds. A
    // slice set with a SliceKeeper is carried into the new store by it (it is
    // in place before storeChanged(), so views compute once, on the kept
    // slice); one set without is dropped (it would miss the new requests).
    // The time window and a candidate put beside the capture stay (the
    // swimlanes widen a window that showed the whole capture).
    void refreshStore(std::shared_ptr<const TraceStore> store, bool rowsKept = false);
    bool isStoreRefresh() const { return m_storeRefresh; }
    bool refreshKeepsRows() const { return m_storeRefresh && m_rowsKept; }

    // Coordinates every figure names ----------------------------------------
    Boundary boundary() const { return m_boundary; }
    void setBoundary(Boundary boundary);
    // The metric under study (distribution panel, class table, exceedance).
    // A new store that has no request with the chosen metric shows E2E
    // instead (metricToShow), emitting metricChanged after storeChanged.
    Metric metric() const { return m_metric; }
    void setMetric(Metric metric);

    // Time ------------------------------------------------------------------
    TimeAxis timeAxis() const { return m_timeAxis; }
    void setTimeAxis(TimeAxis axis);
    // Visible span on the current time axis; invalid (empty) until a view
    // has fitted it to the trace.
    TimeWindow timeWindow() const { return m_timeWindow; }
    void setTimeWindow(TimeWindow window);

    // Selection -------------------------------------------------------------
    const RowSet &selection() const { return m_selection; }
    void setSelection(RowSet rows);
    bool isSelected(qint32 row) const { return m_selection.contains(row); }
    // The one request in focus (keyboard cursor, detail panel); -1 for none.
    qint32 currentRow() const { return m_currentRow; }
    void setCurrentRow(qint32 row);
    // Click: select exactly this request and make it current.
    void selectRow(qint32 row);
    void clearSelection();
    // Double-click or Enter on a request: open its details. An event, not
    // state: nothing is stored.
    void activateRow(qint32 row);

    // Slice (the filter every aggregate view honours) -------------------------
    // Without a slice the whole trace is in scope.
    bool hasSlice() const { return m_hasSlice; }
    const RowSet &slice() const { return m_slice; }
    const QString &sliceLabel() const { return m_sliceLabel; }
    bool inScope(qint32 row) const { return !m_hasSlice || m_slice.contains(row); }
    // The slice's rows, or every row when there is none.
    RowSet rowsInScope() const;
    qsizetype scopeSize() const { return m_hasSlice ? m_slice.size() : requestCount(); }
    // What an aggregate's population is, for its title: "whole trace" or
    // "filter: LABEL", and "1-in-N sample" when the store is a server's
    // sample. The current slice's, or a panel's own snapshot of one.
    QString scopeText() const { return scopeText(m_hasSlice, m_sliceLabel); }
    QString scopeText(bool sliced, const QString &label) const;
    // "No request matches the filter: …" when a slice holds no request, for
    // every view it empties to say why it is empty; otherwise empty.
    QString emptySliceText() const;
    // How a slice follows a live refresh: given the new store, the slice's
    // rows in the old one and how many of the new store's first rows are the
    // old store's requests in the same order (0 after an eviction), the
    // slice's rows in the new store, or nothing to drop it. Called on the GUI
    // thread during refreshStore(), so it must be quick: a filter re-derives
    // its slice from the new rows alone while the old ones are kept.
    using SliceKeeper
        = std::function<std::optional<RowSet>(const TraceStore &store, const RowSet &previous, qsizetype keptRows)>;
    void setSlice(RowSet rows, const QString &label, SliceKeeper keeper = {});
    void clearSlice();

    // Exceedance set and its cursor -----------------------------------------
    const ExceedanceMarks &exceedance() const { return m_exceedance; }
    bool hasExceedance() const { return !m_exceedance.isEmpty(); }
    bool isExceedanceMember(qint32 row) const { return m_exceedance.members.contains(row); }
    void setExceedance(ExceedanceMarks marks);
    void clearExceedance();
    // The member being stepped through; -1 for none. Setting it also makes
    // that request current, so every view follows the step.
    qint32 exceedanceCursor() const { return m_exceedanceCursor; }
    void setExceedanceCursor(qint32 row);

    // Before/after ------------------------------------------------------------
    // A candidate trace put beside the loaded one (the baseline) by File →
    // Compare With…; nullptr for none. A new store drops it (no signal
    // beyond storeChanged()); a live refresh keeps it.
    const std::shared_ptr<const TraceStore> &candidate() const { return m_candidate; }
    const QString &candidateLabel() const { return m_candidateLabel; }
    void setCandidate(std::shared_ptr<const TraceStore> store, const QString &label);
    void clearCandidate() { setCandidate(nullptr, {}); }

    // Bookmarks (requests with notes) -----------------------------------------
    // Marked on their lanes; the Notes dock writes them.
    const RowSet &bookmarks() const { return m_bookmarks; }
    void setBookmarks(RowSet rows);

signals:
    void storeChanged();
    void candidateChanged();
    void boundaryChanged(Boundary boundary);
    void metricChanged(Metric metric);
    void timeAxisChanged(TimeAxis axis);
    void timeWindowChanged(TimeWindow window);
    void selectionChanged();
    void currentRowChanged(qint32 row);
    void rowActivated(qint32 row);
    void sliceChanged();
    void exceedanceChanged();
    void exceedanceCursorChanged(qint32 row);
    void bookmarksChanged();

private:
    // What survives the store being replaced (setStore: nothing).
    struct Kept
    {
        RowSet selection;
        qint32 currentRow = -1;
        std::shared_ptr<const TraceStore> candidate;
        QString candidateLabel;
        std::optional<RowSet> slice;
        QString sliceLabel;
        SliceKeeper sliceKeeper;
        TimeWindow timeWindow;
    };
    void replaceStore(std::shared_ptr<const TraceStore> store, Kept kept);
    bool isValidRow(qint32 row) const { return row >= 0 && row < requestCount(); }

    std::shared_ptr<const TraceStore> m_store;
    bool m_storeRefresh = false;
    bool m_rowsKept = false;
    Boundary m_boundary = Boundary::Client;
    Metric m_metric = Metric::Ttft;
    Metric m_chosenMetric = Metric::Ttft; // what setMetric() asked for; a store without it shows E2E
    TimeAxis m_timeAxis = TimeAxis::Absolute;
    TimeWindow m_timeWindow;
    RowSet m_selection;
    qint32 m_currentRow = -1;
    bool m_hasSlice = false;
    RowSet m_slice;
    QString m_sliceLabel;
    SliceKeeper m_sliceKeeper;
    ExceedanceMarks m_exceedance;
    qint32 m_exceedanceCursor = -1;
    std::shared_ptr<const TraceStore> m_candidate;
    QString m_candidateLabel;

    RowSet m_bookmarks;
};
