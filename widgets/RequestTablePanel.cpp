#include "RequestTablePanel.h"

#include "CountText.h"
#include "InSightWork.h"
#include "RequestTableModel.h"
#include "TableColumns.h"
#include "ViewState.h"
#include "store/TraceStore.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

RequestTablePanel::RequestTablePanel(ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new RequestTableModel(this))
    , m_view(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_attribute(new QComboBox(this))
    , m_value(new QComboBox(this))
    , m_count(new QLabel(this))
    , m_sliceNote(new QLabel(this))
    , m_clearSlice(new QToolButton(this))
    , m_debounce(new QTimer(this))
    , m_fitColumns(new InSightWork(this, [this] {
        if (m_state->requests())
            TableColumns::fitToSample(m_view);
    }))
{
    setObjectName(QStringLiteral("requestTablePanel"));
    m_filter->setObjectName(QStringLiteral("requestFilter"));
    m_count->setObjectName(QStringLiteral("requestCount"));
    m_filter->setPlaceholderText(tr("Filter by request id or class value\u2026"));
    m_filter->setClearButtonEnabled(true);
    m_attribute->setObjectName(QStringLiteral("filterAttribute"));
    m_value->setObjectName(QStringLiteral("filterValue"));
    m_value->setEnabled(false);
    m_clearSlice->setObjectName(QStringLiteral("clearSlice"));
    m_clearSlice->setText(tr("Clear"));
    m_clearSlice->setToolTip(tr("Show every request again"));
    m_sliceNote->hide();
    m_clearSlice->hide();
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);

    m_view->setObjectName(QStringLiteral("requestTable"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionsClickable(true);
    m_view->horizontalHeader()->setSortIndicatorShown(true);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setDefaultSectionSize(96);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_filter, 2);
    filters->addWidget(new QLabel(tr("where"), this));
    filters->addWidget(m_attribute, 1);
    filters->addWidget(new QLabel(tr("="), this));
    filters->addWidget(m_value, 1);
    filters->addWidget(m_sliceNote);
    filters->addWidget(m_clearSlice);
    filters->addWidget(m_count);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(filters);
    layout->addWidget(m_view, 1);

    connect(m_filter, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] {
        m_query.text = m_filter->text().trimmed();
        runQuery();
    });
    connect(m_attribute, &QComboBox::activated, this, [this] {
        fillValueCombo();
        m_query.attribute = m_attribute->currentData().toString();
        m_query.value = m_value->currentText();
        runQuery();
    });
    connect(m_value, &QComboBox::activated, this, [this] {
        m_query.value = m_value->currentText();
        runQuery();
    });
    connect(m_clearSlice, &QToolButton::clicked, this, [this] {
        m_externalSlice = false;
        m_state->clearSlice();
    });
    connect(m_view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this](int column, Qt::SortOrder order) { sortBy(column, order); });
    connect(m_view, &QTableView::doubleClicked, this,
            [this](const QModelIndex &index) { m_state->activateRow(index.data(RequestTableModel::RowRole).toInt()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RequestTablePanel::tableSelectionChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!m_syncingSelection && current.isValid())
                    m_state->setCurrentRow(current.data(RequestTableModel::RowRole).toInt());
            });

    connect(state, &ViewState::storeChanged, this, &RequestTablePanel::storeChanged);
    connect(state, &ViewState::boundaryChanged, this, [this](Boundary boundary) {
        m_model->setBoundary(boundary);
        m_query.boundary = boundary;
        if (m_query.sorted && m_query.sortColumn.kind == RequestColumn::Kind::Metric
            && m_query.sortColumn.metric == Metric::Ttft)
            runQuery();
    });
    connect(state, &ViewState::sliceChanged, this, &RequestTablePanel::externalSliceChanged);
    connect(state, &ViewState::selectionChanged, this, &RequestTablePanel::stateSelectionChanged);
    connect(state, &ViewState::currentRowChanged, this, [this](qint32 row) {
        const int tableRow = m_model->tableRowOf(row);
        if (tableRow < 0 || m_syncingSelection)
            return;
        const QModelIndex index = m_model->index(tableRow, 0);
        m_syncingSelection = true;
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::NoUpdate);
        m_syncingSelection = false;
        m_view->scrollTo(index);
    });
    storeChanged();
}

RequestTablePanel::~RequestTablePanel() = default;

void RequestTablePanel::storeChanged()
{
    m_job.cancel();
    // A live refresh keeps what the user asked of the table (filter, sort)
    // and applies it to the grown capture; a new trace starts afresh.
    const bool refresh = m_state->isStoreRefresh();
    const std::shared_ptr<const TraceStore> old = m_model->store();
    const QString sortAttribute = refresh && old ? sortAttributeName(old->requests) : QString();
    std::vector<qint32> shownOrder;
    if (m_state->refreshKeepsRows() && (m_query.filters() || m_query.sorted || m_externalSlice))
        shownOrder = m_model->order();
    m_model->setStore(m_state->store());
    m_model->setBoundary(m_state->boundary());
    // A slice a refresh carried over is this table's own filter (written
    // again below when its query answers) or another view's, which still
    // scopes the table; any other slice went with the old store.
    m_externalSlice = refresh && m_state->hasSlice() && !m_wroteSlice;
    m_wroteSlice = m_wroteSlice && m_state->hasSlice();
    m_sliceNote->setText(m_externalSlice ? tr("Slice: %1").arg(m_state->sliceLabel()) : QString());
    m_sliceNote->setVisible(m_externalSlice);
    m_clearSlice->setVisible(m_externalSlice);
    if (!refresh) {
        m_query = {};
        const QSignalBlocker blocker(m_filter);
        m_filter->clear();
    }
    m_query.boundary = m_state->boundary();
    const QString attribute = m_query.attribute;
    m_attribute->clear();
    m_attribute->addItem(tr("any attribute"), QString());
    if (const RequestTable *table = m_state->requests()) {
        for (const AttributeColumn &column : table->attributes())
            m_attribute->addItem(column.name(), column.name());
        m_fitColumns->run(refresh);
    }
    m_attribute->setCurrentIndex(qMax(0, m_attribute->findData(attribute)));
    m_query.attribute = m_attribute->currentData().toString();
    fillValueCombo();
    if (m_query.attribute.isEmpty())
        m_query.value.clear();
    else
        m_value->setCurrentIndex(qMax(0, m_value->findText(m_query.value)));
    restoreSort(sortAttribute);
    if (refresh && (m_query.filters() || m_query.sorted || m_externalSlice)) {
        // Until the query answers, the rows shown before (still the same
        // requests) rather than the whole capture in arrival order.
        if (!shownOrder.empty())
            m_model->setOrder(std::move(shownOrder));
        runQuery();
    }
    stateSelectionChanged();
    updateCountLabel();
}

QString RequestTablePanel::sortAttributeName(const RequestTable &table) const
{
    const RequestColumn &column = m_query.sortColumn;
    if (!m_query.sorted || column.kind != RequestColumn::Kind::Attribute || column.attribute < 0
        || size_t(column.attribute) >= table.attributes().size())
        return {};
    return table.attributes()[size_t(column.attribute)].name();
}

void RequestTablePanel::restoreSort(const QString &attribute)
{
    int section = -1;
    if (m_query.sorted) {
        // An attribute column is found by its name: a new attribute in the
        // capture moves the columns after it.
        RequestColumn wanted = m_query.sortColumn;
        if (wanted.kind == RequestColumn::Kind::Attribute) {
            const RequestTable *table = m_state->requests();
            wanted.attribute = -1;
            for (size_t a = 0; table && !attribute.isEmpty() && a < table->attributes().size(); ++a) {
                if (table->attributes()[a].name() == attribute)
                    wanted.attribute = qsizetype(a);
            }
        }
        const std::vector<RequestColumn> &columns = m_model->columns();
        const auto found = std::find(columns.begin(), columns.end(), wanted);
        if (found != columns.end() && (wanted.kind != RequestColumn::Kind::Attribute || wanted.attribute >= 0)) {
            section = int(found - columns.begin());
            m_query.sortColumn = wanted;
        } else {
            m_query.sorted = false;
        }
    }
    const QSignalBlocker blocker(m_view->horizontalHeader());
    m_view->horizontalHeader()->setSortIndicator(section,
                                                 m_query.descending ? Qt::DescendingOrder : Qt::AscendingOrder);
}

void RequestTablePanel::fillValueCombo()
{
    m_value->clear();
    const RequestTable *table = m_state->requests();
    const QString name = m_attribute->currentData().toString();
    const AttributeColumn *column = table && !name.isEmpty() ? table->attribute(name) : nullptr;
    m_value->setEnabled(column != nullptr);
    if (!column)
        return;
    QStringList values;
    if (!column->isNumeric()) {
        values = column->values().mid(1);
    } else {
        // Distinct numbers, capped: a numeric attribute with thousands of
        // values is better filtered by text or sorted.
        std::set<double> distinct;
        for (qsizetype row = 0; row < column->rowCount() && distinct.size() <= 200; ++row) {
            if (!std::isnan(column->number(row)))
                distinct.insert(column->number(row));
        }
        for (const double value : distinct)
            values.append(QString::number(value, 'g', 15));
    }
    values.sort(Qt::CaseInsensitive);
    values.append(QStringLiteral("(none)"));
    m_value->addItems(values);
}

void RequestTablePanel::setTextFilter(const QString &text)
{
    {
        const QSignalBlocker blocker(m_filter);
        m_filter->setText(text);
    }
    m_debounce->stop();
    m_query.text = text.trimmed();
    runQuery();
}

void RequestTablePanel::setAttributeFilter(const QString &attribute, const QString &value)
{
    m_attribute->setCurrentIndex(qMax(0, m_attribute->findData(attribute)));
    fillValueCombo();
    m_value->setCurrentIndex(qMax(0, m_value->findText(value)));
    m_query.attribute = m_attribute->currentData().toString();
    m_query.value = m_query.attribute.isEmpty() ? QString() : value;
    runQuery();
}

void RequestTablePanel::sortBy(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= m_model->columnCount()) {
        m_query.sorted = false;
    } else {
        m_query.sorted = true;
        m_query.sortColumn = m_model->columnAt(column);
        m_query.descending = order == Qt::DescendingOrder;
    }
    {
        const QSignalBlocker blocker(m_view->horizontalHeader());
        m_view->horizontalHeader()->setSortIndicator(column, order);
    }
    runQuery();
}

void RequestTablePanel::runQuery()
{
    const std::shared_ptr<const TraceStore> store = m_state->store();
    if (!store)
        return;
    const RequestQuery query = m_query;
    // A slice set elsewhere is the table's population; its own filter is off then.
    const bool external = m_externalSlice && !query.filters();
    RowSet scope = external ? m_state->slice() : RowSet();
    m_count->setText(tr("Working\u2026"));
    m_job.start(
        [store, query, external, scope = std::move(scope)](const std::atomic<bool> *cancelled) {
            if (!external)
                return RequestQueries::run(store->requests, query, 2, cancelled);
            RequestQueryResult result;
            result.matching = scope;
            result.ordered = RequestQueries::sort(store->requests, scope, query, 2, cancelled);
            return result;
        },
        [this, query, external](RequestQueryResult result) {
            m_model->setOrder(std::move(result.ordered));
            if (!external) {
                m_writingSlice = true;
                if (result.filtered)
                    m_state->setSlice(std::move(result.matching), query.filterLabel(), filterKeeper(query));
                else
                    m_state->clearSlice();
                m_writingSlice = false;
                m_wroteSlice = result.filtered;
                m_externalSlice = false;
            }
            stateSelectionChanged();
            updateCountLabel();
            emit queryFinished();
        });
}

ViewState::SliceKeeper RequestTablePanel::filterKeeper(const RequestQuery &query)
{
    // On a live refresh that kept the rows, the old matches stay and only the
    // new requests are filtered, so every view computes once on the grown
    // slice (the query run again on the grown capture then finds the same
    // rows); after an eviction the slice waits for that query.
    return [query](const TraceStore &store, const RowSet &previous, qsizetype keptRows) -> std::optional<RowSet> {
        if (keptRows <= 0)
            return std::nullopt;
        const RowSet added = RequestQueries::filter(store.requests, query, nullptr, keptRows);
        std::vector<qint32> rows(previous.begin(), previous.end());
        rows.insert(rows.end(), added.begin(), added.end());
        return RowSet::fromSortedUnique(std::move(rows));
    };
}

void RequestTablePanel::externalSliceChanged()
{
    if (m_writingSlice)
        return;
    m_externalSlice = m_state->hasSlice();
    m_wroteSlice = false;
    // Someone else owns the slice now: drop this table's own filter.
    m_query.text.clear();
    m_query.attribute.clear();
    m_query.value.clear();
    {
        const QSignalBlocker blocker(m_filter);
        m_filter->clear();
    }
    m_attribute->setCurrentIndex(0);
    fillValueCombo();
    m_sliceNote->setText(m_externalSlice ? tr("Slice: %1").arg(m_state->sliceLabel()) : QString());
    m_sliceNote->setVisible(m_externalSlice);
    m_clearSlice->setVisible(m_externalSlice);
    runQuery();
}

void RequestTablePanel::tableSelectionChanged()
{
    if (m_syncingSelection)
        return;
    std::vector<qint32> rows;
    const QItemSelection selection = m_view->selectionModel()->selection();
    for (const QItemSelectionRange &range : selection) {
        for (int row = range.top(); row <= range.bottom(); ++row)
            rows.push_back(m_model->storeRowAt(row));
    }
    m_syncingSelection = true;
    m_state->setSelection(RowSet::fromRows(std::move(rows)));
    m_syncingSelection = false;
}

void RequestTablePanel::stateSelectionChanged()
{
    if (m_syncingSelection)
        return;
    std::vector<int> tableRows;
    for (const qint32 row : m_state->selection()) {
        const int tableRow = m_model->tableRowOf(row);
        if (tableRow >= 0)
            tableRows.push_back(tableRow);
    }
    std::sort(tableRows.begin(), tableRows.end());
    QItemSelection selection;
    const int lastColumn = m_model->columnCount() - 1;
    for (size_t i = 0; i < tableRows.size();) {
        size_t end = i + 1;
        while (end < tableRows.size() && tableRows[end] == tableRows[end - 1] + 1)
            ++end;
        selection.select(m_model->index(tableRows[i], 0), m_model->index(tableRows[end - 1], lastColumn));
        i = end;
    }
    m_syncingSelection = true;
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    m_syncingSelection = false;
    updateCountLabel();
}

void RequestTablePanel::updateCountLabel()
{
    const QLocale locale;
    QString text = tr("%1 of %2")
                       .arg(locale.toString(m_model->rowCount()),
                            CountText::of(m_state->requestCount(), tr("request"), tr("requests")));
    if (m_model->rowCount() == 0 && m_state->requestCount() > 0)
        text = tr("No request matches (0 of %1)").arg(locale.toString(m_state->requestCount()));
    if (!m_state->selection().isEmpty())
        text += tr(", %1 selected").arg(locale.toString(m_state->selection().size()));
    m_count->setText(text);
}
