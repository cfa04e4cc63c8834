#include "ClassTablePanel.h"

#include "ClassCdfPlot.h"
#include "ClassSplitBar.h"
#include "ClassTableModel.h"
#include "ClassTableSortModel.h"
#include "CountText.h"
#include "InSightWork.h"
#include "ViewState.h"
#include "analysis/classes/ClassCellRows.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "remote/ServerFigures.h"
#include "store/TraceStore.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>
#include <utility>

namespace {

// With no class selected the plot shows the largest classes, at most this many.
constexpr size_t kDefaultCurves = 6;

} // namespace

ClassTablePanel::ClassTablePanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_split(new ClassSplitBar(this))
    , m_status(new QLabel(this))
    , m_mixture(new QLabel(this))
    , m_model(new ClassTableModel(this))
    , m_sort(new ClassTableSortModel(this))
    , m_view(new QTableView(this))
    , m_cdf(new ClassCdfPlot(this))
    , m_refresh(new InSightWork(this, [this] { recompute(); }))
{
    setObjectName(QStringLiteral("classTablePanel"));
    m_mixture->setObjectName(QStringLiteral("classMixtureWarning"));
    m_status->setObjectName(QStringLiteral("classStatus"));
    m_view->setObjectName(QStringLiteral("classTableView"));

    m_mixture->setWordWrap(true);
    m_mixture->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_mixture->setStyleSheet(QStringLiteral("QLabel { background: #fde8e8; color: #7a0010; border: 1px solid #c00020;"
                                            " padding: 3px; }"));
    m_mixture->hide();
    m_status->setWordWrap(true);

    m_sort->setSourceModel(m_model);
    m_view->setModel(m_sort);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // table order until a header is clicked
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->setWordWrap(false);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_cdf);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({650, 350}); // the table's four interval columns need the room

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_split);
    layout->addWidget(m_status);
    layout->addWidget(m_mixture);
    layout->addWidget(splitter, 1);

    connect(m_split, &ClassSplitBar::splitChanged, this, &ClassTablePanel::recompute);
    connect(m_split, &ClassSplitBar::metricPicked, m_state, &ViewState::setMetric);
    connect(m_split, &ClassSplitBar::bandsRefused, m_status, &QLabel::setText);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ClassTablePanel::onSelectionChanged);
    connect(state, &ViewState::storeChanged, this, &ClassTablePanel::rebuildDimensions);
    connect(state, &ViewState::sliceChanged, this, &ClassTablePanel::onSliceChanged);
    connect(state, &ViewState::boundaryChanged, this, &ClassTablePanel::recompute);
    connect(state, &ViewState::metricChanged, this, [this](Metric metric) {
        m_split->showMetric(metric);
        recompute();
    });
    m_split->showMetric(state->metric());
    rebuildDimensions();
}

ClassTablePanel::~ClassTablePanel() = default;

void ClassTablePanel::rebuildDimensions()
{
    // A live refresh keeps the user's pick: its slice is carried into the
    // grown capture by pickKeeper(), and the same classes are picked again
    // (the rows being new) in the table computed on it. A pick waiting to be
    // picked again (the panel out of sight) waits on through more refreshes.
    const bool refresh = m_state->isStoreRefresh();
    if (!refresh)
        m_keptPick.clear();
    if (refresh && m_written) {
        std::vector<QStringList> picked;
        const ClassTable &table = m_model->table();
        for (const int cell : selectedCells()) {
            if (size_t(cell) < table.cells.size())
                picked.push_back(table.cells[size_t(cell)].classes);
        }
        if (!picked.empty())
            m_keptPick = std::move(picked);
    }
    const bool pickKept = refresh && m_written && m_state->hasSlice() && m_state->sliceLabel() == m_written->label;
    if (pickKept)
        m_written->rows = m_state->slice();
    else
        m_written.reset();
    m_cache = m_state->store() ? std::make_shared<ColumnCache>(m_state->store()) : nullptr;
    // The table is computed on the whole capture under its own pick; a slice
    // another view kept through the refresh scopes it.
    m_scope = m_state->hasSlice() && !pickKept ? Scope{true, m_state->slice(), m_state->sliceLabel()} : Scope{};
    // Rows of the old trace must never reach the new one's slice.
    m_job.cancel();
    m_cellRows.clear();
    {
        // Emptying the table is not the user dropping the pick.
        const QSignalBlocker blocker(m_view->selectionModel());
        m_model->setTable({});
    }
    m_split->setTable(m_state->requests());
    m_refresh->run(refresh);
}

ViewState::SliceKeeper ClassTablePanel::pickKeeper(std::vector<QStringList> picked) const
{
    // The classes' requests among the new rows, by the same dimensions and
    // bands: one pass per dimension over the grown table.
    return [dimensions = m_split->chosen(), bands = m_split->bands(), picked = std::move(picked)](
               const TraceStore &store, const RowSet &previous, qsizetype keptRows) -> std::optional<RowSet> {
        if (keptRows <= 0)
            return std::nullopt; // rows moved: the table picks them again
        const RequestTable &table = store.requests;
        std::vector<ClassColumn> columns;
        columns.reserve(dimensions.size());
        for (const ClassDimension &dimension : dimensions)
            columns.push_back(ClassColumn::build(table, dimension, bands));
        std::vector<std::vector<quint32>> wanted;
        for (const QStringList &classes : picked) {
            std::vector<quint32> codes;
            for (size_t d = 0; d < columns.size(); ++d) {
                const qsizetype code = columns[d].codeOf(classes.value(qsizetype(d)));
                if (code < 0)
                    break;
                codes.push_back(quint32(code));
            }
            if (codes.size() == columns.size())
                wanted.push_back(std::move(codes));
        }
        std::vector<qint32> rows(previous.begin(), previous.end());
        for (qsizetype row = keptRows; row < table.rowCount(); ++row) {
            const bool member = std::any_of(wanted.begin(), wanted.end(), [&](const std::vector<quint32> &codes) {
                for (size_t d = 0; d < columns.size(); ++d) {
                    if (columns[d].codes[size_t(row)] != codes[d])
                        return false;
                }
                return true;
            });
            if (member)
                rows.push_back(qint32(row));
        }
        return RowSet::fromSortedUnique(std::move(rows));
    };
}

bool ClassTablePanel::setDimensions(const QStringList &keys)
{
    return m_split->setKeys(keys);
}

QStringList ClassTablePanel::dimensions() const
{
    return m_split->keys();
}

bool ClassTablePanel::setBands(const QString &prompt, const QString &output, QString *error)
{
    return m_split->setBands(prompt, output, error);
}

void ClassTablePanel::onSliceChanged()
{
    const Scope now{m_state->hasSlice(), m_state->slice(), m_state->sliceLabel()};
    if (m_written && now == *m_written)
        return; // the filter this panel set from its own selection
    if (m_written) {
        // Someone else replaced the class filter: the picked cells no longer hold.
        m_written.reset();
        {
            const QSignalBlocker blocker(m_view->selectionModel());
            m_view->clearSelection();
        }
        m_view->viewport()->update();
        updateCurves();
    }
    if (now == m_scope)
        return;
    m_scope = now;
    recompute();
}

void ClassTablePanel::recompute()
{
    if (m_refresh->isPending())
        return; // out of sight since a live refresh: done once looked at
    const auto store = m_state->store();
    const std::vector<ClassDimension> chosen = m_split->chosen();
    if (!store || chosen.empty()) {
        m_job.cancel();
        apply({});
        return;
    }
    ClassTableSpec spec;
    spec.metric = m_state->metric();
    spec.boundary = m_state->boundary();
    // A sample's population is described by the server; a filter's rows
    // are the sample's own, so under one the sample answers.
    const QString serverUrl = m_scope.sliced ? QString() : store->serverUrl;
    m_status->setText(serverUrl.isEmpty() ? tr("Computing\u2026")
                                          : tr("Computing on the server over the whole population\u2026"));
    m_job.start(
        [cache = m_cache, chosen, keys = m_split->keys(), bands = m_split->bands(), spec, scope = m_scope,
         serverUrl](const std::atomic<bool> *cancel) {
            const RequestTable &table = cache->table();
            const RequestSlice slice = scope.sliced ? RequestSlice::fromRows(table.rowCount(), scope.rows.rows())
                                                    : RequestSlice::all(table.rowCount());
            std::vector<ClassColumn> columns;
            columns.reserve(chosen.size());
            for (const auto &dimension : chosen)
                columns.push_back(ClassColumn::build(table, dimension, bands));
            Result result;
            result.table = computeClassTable(*cache->metric(spec.metric, spec.boundary), columns, slice, spec);
            result.cellRows = classCellRows(result.table, columns, slice);
            if (!serverUrl.isEmpty()) {
                ClassTable server
                    = ServerFigures::classTable(serverUrl, keys, bands, spec, cancel, &result.serverError);
                if (result.serverError.isEmpty() && server.error.isEmpty()) {
                    result.cellRows = ServerFigures::adoptSample(&server, result.table, std::move(result.cellRows));
                    result.table = std::move(server);
                    result.fromServer = true;
                } else if (result.serverError.isEmpty()) {
                    result.serverError = server.error;
                }
            }
            return result;
        },
        [this](Result result) { apply(std::move(result)); });
}

void ClassTablePanel::apply(Result result)
{
    // A new table starts without a class picked: give back the scope it was
    // computed on, unless a live refresh's pick is picked again below.
    const auto giveBackScope = [this] {
        if (m_scope.sliced)
            m_state->setSlice(m_scope.rows, m_scope.label);
        else
            m_state->clearSlice();
    };
    const bool repick = !m_keptPick.empty();
    if (std::exchange(m_written, std::nullopt) && !repick)
        giveBackScope();
    m_cellRows = std::move(result.cellRows);
    m_fromServer = result.fromServer;
    m_serverError = std::move(result.serverError);
    {
        const QSignalBlocker blocker(m_view->selectionModel());
        m_model->setTable(std::move(result.table));
    }
    if (repick) {
        // The same classes picked again (table rows are cells, in order):
        // the slice they write holds the rows the refresh kept, so nothing
        // else recomputes.
        QList<int> rows;
        const ClassTable &picked = m_model->table();
        for (size_t cell = 0; cell < picked.cells.size(); ++cell) {
            if (std::find(m_keptPick.begin(), m_keptPick.end(), picked.cells[cell].classes) != m_keptPick.end())
                rows.append(int(cell));
        }
        m_keptPick.clear();
        if (!rows.isEmpty())
            selectCells(rows);
        else if (m_state->hasSlice() && !m_scope.sliced)
            giveBackScope(); // the classes are gone: so is their filter
    }
    const ClassTable &table = m_model->table();
    m_mixture->setVisible(table.mixture.has_value());
    if (table.mixture)
        m_mixture->setText(QStringLiteral("\u26a0 ") + table.mixture->text(table));
    updateStatus();
    updateCurves();
    emit tableReady();
}

void ClassTablePanel::updateStatus()
{
    const ClassTable &table = m_model->table();
    const QLocale locale;
    m_split->showBoundary(table.boundary);
    if (!m_state->store()) {
        m_status->setText(tr("No trace loaded."));
        return;
    }
    if (!table.error.isEmpty()) {
        m_status->setText(table.error);
        return;
    }
    if (const QString empty = m_state->emptySliceText(); !empty.isEmpty() && table.sliceRequests == 0) {
        m_status->setText(empty);
        return;
    }
    const QString scope = m_fromServer ? tr("the whole population, computed by the server")
                                       : m_state->scopeText(m_scope.sliced, m_scope.label);
    QString text = tr("%1 (%2) \u00b7 %3 \u00b7 above the overall p95 (%4 %5): %6 \u00b7 "
                      "95% intervals from order statistics")
                       .arg(CountText::of(table.sliceRequests, tr("request"), tr("requests")), scope,
                            CountText::of(qint64(table.cells.size()), tr("class"), tr("classes")),
                            locale.toString(table.exceedanceThreshold, 'f', 1), metricUnit(table.metric),
                            CountText::of(table.exceedanceSize, tr("request"), tr("requests")));
    const TraceStore *store = m_state->store().get();
    if (m_fromServer)
        text += tr(" \u00b7 curves and picks: the %1 held (a 1-in-%2 sample)")
                    .arg(CountText::of(store->requests.rowCount(), tr("request"), tr("requests")))
                    .arg(store->sampleOneIn);
    else if (!m_serverError.isEmpty())
        text += tr(" \u00b7 the server did not compute the whole population's table (%1): these are the "
                   "sample's estimates")
                    .arg(m_serverError);
    m_status->setText(text);
}

void ClassTablePanel::selectCells(const QList<int> &rows)
{
    QItemSelection selection;
    for (const int row : rows)
        selection.select(m_sort->mapFromSource(m_model->index(row, 0)),
                         m_sort->mapFromSource(m_model->index(row, m_model->columnCount() - 1)));
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

std::vector<int> ClassTablePanel::selectedCells() const
{
    std::vector<int> cells;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows()) {
        const int cell = m_model->cellOfRow(m_sort->mapToSource(index).row());
        if (cell >= 0)
            cells.push_back(cell); // the overall row is the scope itself
    }
    return cells;
}

void ClassTablePanel::onSelectionChanged()
{
    const ClassTable &table = m_model->table();
    std::vector<qint32> rows;
    QStringList labels;
    for (const int cell : selectedCells()) {
        if (size_t(cell) >= m_cellRows.size())
            continue;
        const auto &members = m_cellRows[size_t(cell)];
        rows.insert(rows.end(), members.begin(), members.end());
        QStringList parts;
        for (size_t d = 0; d < table.dimensions.size(); ++d)
            parts << QStringLiteral("%1 = %2").arg(table.dimensions[d].label,
                                                   table.cells[size_t(cell)].classes.value(int(d)));
        labels << parts.join(QStringLiteral(", "));
    }
    updateCurves();
    if (labels.isEmpty()) {
        if (!m_written)
            return;
        m_written.reset();
        if (m_scope.sliced)
            m_state->setSlice(m_scope.rows, m_scope.label);
        else
            m_state->clearSlice();
        return;
    }
    // Short enough for a status line: name up to two classes, count the rest.
    QString label = labels.size() <= 2 ? labels.join(QStringLiteral(" or "))
                                       : tr("%1 or %2 more classes").arg(labels.first()).arg(labels.size() - 1);
    if (m_scope.sliced)
        label = QStringLiteral("%1; %2").arg(m_scope.label, label);
    // One cell's rows are already ascending; several are merged by a sort.
    RowSet members = labels.size() == 1 ? RowSet::fromSortedUnique(std::move(rows)) : RowSet::fromRows(std::move(rows));
    Scope written{true, std::move(members), label};
    m_written = written;
    // Under another view's slice the pick is dropped by a refresh (that
    // slice may not survive it) and picked again in the new table.
    std::vector<QStringList> picked;
    for (const int cell : selectedCells()) {
        if (size_t(cell) < table.cells.size())
            picked.push_back(table.cells[size_t(cell)].classes);
    }
    m_state->setSlice(written.rows, written.label, m_scope.sliced ? ViewState::SliceKeeper() : pickKeeper(picked));
}

void ClassTablePanel::updateCurves()
{
    const ClassTable &table = m_model->table();
    std::vector<ClassCell> cells;
    for (const int cell : selectedCells())
        cells.push_back(table.cells[size_t(cell)]);
    std::sort(cells.begin(), cells.end(), [&](const ClassCell &a, const ClassCell &b) {
        return std::pair(a.codes[0], a.codes[1]) < std::pair(b.codes[0], b.codes[1]);
    });
    if (cells.empty()) {
        // Nothing picked: the largest classes, in table order.
        std::vector<size_t> order(table.cells.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return table.cells[a].n > table.cells[b].n; });
        order.resize(std::min(order.size(), kDefaultCurves));
        std::sort(order.begin(), order.end());
        for (const size_t i : order)
            cells.push_back(table.cells[i]);
    }
    std::optional<ClassCell> overall;
    if (!table.dimensions.empty() && table.error.isEmpty())
        overall = table.overall;
    m_cdf->setCurves(std::move(cells), std::move(overall), table.metric, table.boundary);
}
