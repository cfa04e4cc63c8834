#include "ViewState.h"

#include "store/TraceStore.h"

ViewState::ViewState(QObject *parent)
    : QObject(parent)
{ }

ViewState::~ViewState() = default;

const RequestTable *ViewState::requests() const
{
    return m_store ? &m_store->requests : nullptr;
}

qsizetype ViewState::requestCount() const
{
    return m_store ? m_store->requests.rowCount() : 0;
}

void ViewState::refreshStore(std::shared_ptr<const TraceStore> store, bool rowsKept)
{
    if (store == m_store)
        return;
    Kept kept;
    if (rowsKept) {
        kept.selection = m_selection;
        kept.currentRow = m_currentRow;
    }
    kept.candidate = m_candidate;
    kept.candidateLabel = m_candidateLabel;
    kept.timeWindow = m_timeWindow;
    if (m_hasSlice && m_sliceKeeper && store) {
        kept.slice = m_sliceKeeper(*store, m_slice, rowsKept ? requestCount() : 0);
        if (kept.slice) {
            kept.sliceLabel = m_sliceLabel;
            kept.sliceKeeper = m_sliceKeeper;
        }
    }
    const bool keptSelection = !kept.selection.isEmpty();
    m_storeRefresh = true;
    m_rowsKept = rowsKept;
    replaceStore(std::move(store), std::move(kept));
    m_storeRefresh = false;
    m_rowsKept = false;
    // Views rebuilt on storeChanged() learn of what was kept as they would
    // of a new choice.
    if (keptSelection && !m_selection.isEmpty())
        emit selectionChanged();
    if (m_currentRow >= 0)
        emit currentRowChanged(m_currentRow);
}

void ViewState::setStore(std::shared_ptr<const TraceStore> store)
{
    if (store == m_store)
        return;
    replaceStore(std::move(store), {});
}

void ViewState::replaceStore(std::shared_ptr<const TraceStore> store, Kept kept)
{
    m_store = std::move(store);
    // Rows of the old trace mean nothing in the new one, unless kept.
    m_selection = std::move(kept.selection);
    m_currentRow = isValidRow(kept.currentRow) ? kept.currentRow : -1;
    m_hasSlice = kept.slice.has_value();
    m_slice = kept.slice ? std::move(*kept.slice) : RowSet();
    m_sliceLabel = std::move(kept.sliceLabel);
    m_sliceKeeper = std::move(kept.sliceKeeper);
    m_exceedance = {};
    m_exceedanceCursor = -1;
    m_bookmarks = {};
    m_timeWindow = kept.timeWindow;
    m_candidate = std::move(kept.candidate);
    m_candidateLabel = m_candidate ? std::move(kept.candidateLabel) : QString();
    // Open on a metric the trace has: a span trace whose model calls record
    // no token time has no TTFT, so it opens on E2E; the next trace that has
    // TTFT goes back to what the user chose.
    const Metric shown = m_store ? metricToShow(m_store->requests, m_chosenMetric, m_boundary) : m_chosenMetric;
    const bool metricMoved = shown != m_metric;
    m_metric = shown;
    emit storeChanged();
    if (metricMoved)
        emit metricChanged(m_metric);
}

void ViewState::setCandidate(std::shared_ptr<const TraceStore> store, const QString &label)
{
    if (store == m_candidate && label == m_candidateLabel)
        return;
    m_candidate = std::move(store);
    m_candidateLabel = m_candidate ? label : QString();
    emit candidateChanged();
}

void ViewState::setBoundary(Boundary boundary)
{
    if (boundary == m_boundary)
        return;
    m_boundary = boundary;
    emit boundaryChanged(boundary);
}

void ViewState::setMetric(Metric metric)
{
    m_chosenMetric = metric;
    if (metric == m_metric)
        return;
    m_metric = metric;
    emit metricChanged(metric);
}

void ViewState::setTimeAxis(TimeAxis axis)
{
    if (axis == m_timeAxis)
        return;
    m_timeAxis = axis;
    m_timeWindow = {}; // a window on one axis means nothing on the other
    emit timeAxisChanged(axis);
}

void ViewState::setTimeWindow(TimeWindow window)
{
    if (window == m_timeWindow)
        return;
    m_timeWindow = window;
    emit timeWindowChanged(window);
}

void ViewState::setSelection(RowSet rows)
{
    if (rows == m_selection)
        return;
    m_selection = std::move(rows);
    emit selectionChanged();
}

void ViewState::setCurrentRow(qint32 row)
{
    if (!isValidRow(row))
        row = -1;
    if (row == m_currentRow)
        return;
    m_currentRow = row;
    emit currentRowChanged(row);
}

void ViewState::selectRow(qint32 row)
{
    if (!isValidRow(row)) {
        clearSelection();
        return;
    }
    setSelection(RowSet::single(row));
    setCurrentRow(row);
}

void ViewState::clearSelection()
{
    setSelection({});
    setCurrentRow(-1);
}

void ViewState::activateRow(qint32 row)
{
    if (isValidRow(row))
        emit rowActivated(row);
}

RowSet ViewState::rowsInScope() const
{
    return m_hasSlice ? m_slice : RowSet::all(requestCount());
}

void ViewState::setSlice(RowSet rows, const QString &label, SliceKeeper keeper)
{
    m_sliceKeeper = std::move(keeper);
    if (m_hasSlice && rows == m_slice && label == m_sliceLabel)
        return;
    m_hasSlice = true;
    m_slice = std::move(rows);
    m_sliceLabel = label;
    emit sliceChanged();
}

void ViewState::clearSlice()
{
    m_sliceKeeper = {};
    if (!m_hasSlice)
        return;
    m_hasSlice = false;
    m_slice = {};
    m_sliceLabel.clear();
    emit sliceChanged();
}

void ViewState::setExceedance(ExceedanceMarks marks)
{
    if (marks == m_exceedance)
        return;
    m_exceedance = std::move(marks);
    if (m_exceedanceCursor >= 0 && !m_exceedance.members.contains(m_exceedanceCursor)) {
        m_exceedanceCursor = -1;
        emit exceedanceCursorChanged(-1);
    }
    emit exceedanceChanged();
}

void ViewState::clearExceedance()
{
    setExceedance({});
}

void ViewState::setExceedanceCursor(qint32 row)
{
    if (!isValidRow(row))
        row = -1;
    if (row == m_exceedanceCursor)
        return;
    m_exceedanceCursor = row;
    emit exceedanceCursorChanged(row);
    if (row >= 0)
        setCurrentRow(row);
}

QString ViewState::scopeText(bool sliced, const QString &label) const
{
    const qint64 oneIn = m_store ? m_store->sampleOneIn : 1;
    const QString sample = tr("1-in-%1 sample").arg(oneIn);
    if (!sliced)
        return oneIn > 1 ? sample : tr("whole trace");
    const QString filter = tr("filter: %1").arg(label);
    return oneIn > 1 ? filter + QStringLiteral(" \u00b7 ") + sample : filter;
}

QString ViewState::emptySliceText() const
{
    if (!m_hasSlice || !m_slice.isEmpty() || !m_store)
        return {};
    return tr("No request matches the filter: %1. Clear or change it to see requests again.").arg(m_sliceLabel);
}

void ViewState::setBookmarks(RowSet rows)
{
    if (rows == m_bookmarks)
        return;
    m_bookmarks = std::move(rows);
    emit bookmarksChanged();
}
