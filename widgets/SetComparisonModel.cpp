#include "SetComparisonModel.h"

#include "FeatureText.h"

#include <QLocale>

SetComparisonModel::SetComparisonModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void SetComparisonModel::setRanking(std::vector<FeatureSeparation> ranked)
{
    beginResetModel();
    m_ranked = std::move(ranked);
    endResetModel();
}

int SetComparisonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ranked.size());
}

int SetComparisonModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SetComparisonModel::shareTable(const FeatureSeparation &separation) const
{
    // Every value's share, set vs rest, for the tooltip (the cell names only the strongest).
    QStringList lines{tr("%1: share in the set vs the rest").arg(separation.feature.label)};
    for (const ValueShare &value : separation.shares) {
        lines << tr("%1: %2 (%3) vs %4 (%5)")
                     .arg(value.value, FeatureText::share(value.setShare))
                     .arg(value.setCount)
                     .arg(FeatureText::share(value.restShare))
                     .arg(value.restCount);
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant SetComparisonModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const FeatureSeparation &separation = m_ranked[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        // The two roles differ only in the separation: formatted vs raw.
        switch (Column(index.column())) {
        case Rank:
            return index.row() + 1;
        case Feature:
            return separation.feature.label;
        case Separation:
            if (role == SortRole)
                return separation.separation;
            return QLocale().toString(separation.separation, 'f', 3);
        case Method:
            return separation.method();
        case SetVsRest:
            return FeatureText::separationDetail(separation);
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (!separation.feature.numeric)
            return shareTable(separation);
        return tr("Kolmogorov\u2013Smirnov D = %1 at %2 (set n = %3, rest n = %4)")
            .arg(QLocale().toString(separation.separation, 'f', 3),
                 FeatureText::withUnit(separation.ksAt, separation.feature.unit))
            .arg(separation.setN)
            .arg(separation.restN);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == Rank || index.column() == Separation
                                       ? Qt::AlignRight | Qt::AlignVCenter
                                       : Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant SetComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Rank:
        return tr("Rank");
    case Feature:
        return tr("Feature");
    case Separation:
        return tr("Separation");
    case Method:
        return tr("Measured by");
    case SetVsRest:
        return tr("Set vs rest");
    case ColumnCount:
        break;
    }
    return {};
}
