#pragma once

#include <QAbstractTableModel>

#include <memory>

class TraceStore;

// The records a load refused, one row each: file, line, request id, field
// and reason. Nothing is dropped silently; this is where the user sees it.
class RejectedRecordsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { File, Line, Request, Field, Reason, ColumnCount };

    explicit RejectedRecordsModel(QObject *parent = nullptr);

    void setStore(std::shared_ptr<const TraceStore> store);

    // Tab-separated rows (with a header line) for the clipboard.
    QString toTsv(const QList<int> &rows) const;
    // RFC 4180 CSV of every row, with a header line.
    QString toCsv() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString cell(int row, int column) const;

    std::shared_ptr<const TraceStore> m_store;
};
