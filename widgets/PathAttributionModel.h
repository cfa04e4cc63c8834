#pragma once

#include "analysis/workflows/PathAttribution.h"

#include <QAbstractTableModel>

// The slow workflows' mean excess split over critical-path time by key: one
// row per key (largest difference first), then "outside the span tree" and
// the total the rows above add up to; beside each key how often it is on the
// path in the set and the rest, its mean critical time there and its slack
// when off the path. The suspect's row is bold. Display role formatted,
// SortRole raw.
class PathAttributionModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Key,
        SetMean,
        RestMean,
        Difference,
        OfTotal,
        SetOnPath,
        RestOnPath,
        WhenOnPath,
        SlackOffPath,
        ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole };

    explicit PathAttributionModel(QObject *parent = nullptr);

    void setAttribution(PathAttribution attribution);
    const PathAttribution &attribution() const { return m_attribution; }
    int outsideRow() const { return int(m_attribution.keys.size()); }
    int totalRow() const { return outsideRow() + 1; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(int row, Column column) const;
    QVariant sortValue(int row, Column column) const;

    PathAttribution m_attribution;
};
