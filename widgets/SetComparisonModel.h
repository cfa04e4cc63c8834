#pragma once

#include "analysis/exceedance/SetComparison.h"

#include <QAbstractTableModel>

// Features ranked by how strongly they separate the exceedance set from the
// rest (one list: attributes and token shape, or phases): rank, feature,
// separation in [0, 1], how it was measured and what differs.
class SetComparisonModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Rank, Feature, Separation, Method, SetVsRest, ColumnCount };
    enum Roles { SortRole = Qt::UserRole };

    explicit SetComparisonModel(QObject *parent = nullptr);

    void setRanking(std::vector<FeatureSeparation> ranked);
    const std::vector<FeatureSeparation> &ranking() const { return m_ranked; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString shareTable(const FeatureSeparation &separation) const;

    std::vector<FeatureSeparation> m_ranked;
};
