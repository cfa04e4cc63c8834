#include "RejectedRecordsModel.h"

#include "store/TraceStore.h"

#include <QFileInfo>

RejectedRecordsModel::RejectedRecordsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void RejectedRecordsModel::setStore(std::shared_ptr<const TraceStore> store)
{
    beginResetModel();
    m_store = std::move(store);
    endResetModel();
}

int RejectedRecordsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_store ? 0 : int(m_store->rejected.size());
}

int RejectedRecordsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RejectedRecordsModel::cell(int row, int column) const
{
    const RejectedRecord &record = m_store->rejected[size_t(row)];
    switch (column) {
    case File:
        return record.file;
    case Line:
        return record.line > 0 ? QString::number(record.line) : QString();
    case Request:
        return record.requestId;
    case Field:
        return record.field;
    case Reason:
        return record.reason;
    default:
        return {};
    }
}

QVariant RejectedRecordsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::DisplayRole) {
        if (index.column() == File)
            return QFileInfo(cell(index.row(), File)).fileName();
        return cell(index.row(), index.column());
    }
    if (role == Qt::ToolTipRole)
        return m_store->rejected[size_t(index.row())].toString();
    if (role == Qt::TextAlignmentRole && index.column() == Line)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QVariant RejectedRecordsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case File:
        return tr("File");
    case Line:
        return tr("Line");
    case Request:
        return tr("Request");
    case Field:
        return tr("Field");
    case Reason:
        return tr("Reason");
    default:
        return {};
    }
}

QString RejectedRecordsModel::toTsv(const QList<int> &rows) const
{
    QStringList lines{QStringLiteral("file\tline\trequest_id\tfield\treason")};
    for (const int row : rows) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells.append(
                cell(row, c).replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' ')));
        lines.append(cells.join(QLatin1Char('\t')));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString RejectedRecordsModel::toCsv() const
{
    auto quote = [](QString text) -> QString {
        if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
            return text;
        return QLatin1Char('"') + text.replace(QStringLiteral("\""), QStringLiteral("\"\"")) + QLatin1Char('"');
    };
    QString csv = QStringLiteral("file,line,request_id,field,reason\n");
    for (int row = 0; row < rowCount(); ++row) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells.append(quote(cell(row, c)));
        csv += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}
