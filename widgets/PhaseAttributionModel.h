#pragma once

#include "analysis/exceedance/PhaseAttribution.h"

#include <QAbstractTableModel>

// The set's mean excess split by phase: one row per phase inside the total,
// then the unobserved residual and the total, which the rows above sum to.
// The suspected phase's row is bold.
class PhaseAttributionModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Phase_, SetMean, RestMean, Difference, OfTotal, ColumnCount };
    enum Roles { SortRole = Qt::UserRole };

    explicit PhaseAttributionModel(QObject *parent = nullptr);

    void setAttribution(PhaseAttribution attribution);
    const PhaseAttribution &attribution() const { return m_attribution; }
    int residualRow() const { return int(m_attribution.phases.size()); }
    int totalRow() const { return residualRow() + 1; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Line
    {
        QString label;
        double setMean;
        double restMean;
        double difference;
    };
    Line lineAt(int row) const;

    PhaseAttribution m_attribution;
};
