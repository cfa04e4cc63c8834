#pragma once

#include "analysis/requests/Boundary.h"
#include "analysis/requests/RequestQuery.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

class TraceStore;

// A thin adapter from the column store to a table: no per-row objects, only
// a vector of store rows in display order (and its inverse). Display role
// is formatted with units, RawRole holds the number to sort by, RowRole the
// store row. Filtering and sorting happen elsewhere (RequestQueries, off the
// GUI thread); the result comes back through setOrder().
class RequestTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles {
        RawRole = Qt::UserRole + 1, // double, or QString for text columns
        RowRole,                    // store row (int)
    };

    explicit RequestTableModel(QObject *parent = nullptr);
    ~RequestTableModel() override;

    void setStore(std::shared_ptr<const TraceStore> store);
    void setBoundary(Boundary boundary);

    // Shows exactly `rows` (store rows) in this order. When the rows are the
    // same set as now, only their order changes: persistent indexes (the
    // view's selection and current index) follow their requests.
    void setOrder(std::vector<qint32> rows);

    const std::shared_ptr<const TraceStore> &store() const { return m_store; }
    // The store rows shown, in display order.
    const std::vector<qint32> &order() const { return m_rows; }
    const std::vector<RequestColumn> &columns() const { return m_columns; }
    RequestColumn columnAt(int column) const { return m_columns[size_t(column)]; }
    // Table row of a store row, or -1 when it is filtered out.
    int tableRowOf(qint32 storeRow) const;
    qint32 storeRowAt(int tableRow) const { return m_rows[size_t(tableRow)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const TraceStore> m_store;
    Boundary m_boundary = Boundary::Client;
    std::vector<RequestColumn> m_columns;
    std::vector<qint32> m_rows;      // table row -> store row
    std::vector<qint32> m_tableRows; // store row -> table row (-1: hidden)
    double m_longestMs = 0.0;        // no duration of the trace is longer (its whole span)
};
