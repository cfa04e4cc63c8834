#include "PathAttributionModel.h"

#include "FeatureText.h"

#include <QFont>
#include <QLocale>

#include <cmath>

namespace {

QString ms(double value)
{
    return FeatureText::withUnit(std::abs(value) < 0.05 ? 0.0 : value, QStringLiteral("ms"));
}

QString pair(double set, double rest)
{
    const auto one = [](double value) {
        return std::isnan(value) ? QStringLiteral("\u2013")
                                 : QLocale().toString(std::abs(value) < 0.05 ? 0.0 : value, 'f', 1);
    };
    return QStringLiteral("%1 / %2 ms").arg(one(set), one(rest));
}

} // namespace

PathAttributionModel::PathAttributionModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void PathAttributionModel::setAttribution(PathAttribution attribution)
{
    beginResetModel();
    m_attribution = std::move(attribution);
    endResetModel();
}

int PathAttributionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_attribution.isEmpty() ? 0 : totalRow() + 1;
}

int PathAttributionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PathAttributionModel::display(int row, Column column) const
{
    const PathAttribution &a = m_attribution;
    const auto share = [&](double difference) {
        return FeatureText::share(a.differenceMs != 0.0 ? difference / a.differenceMs : std::nan(""));
    };
    if (row == outsideRow() || row == totalRow()) {
        const bool outside = row == outsideRow();
        const double difference = outside ? a.outsideDifferenceMs : a.sumOfContributions();
        switch (column) {
        case Key:
            return outside ? tr("outside the span tree") : tr("total %1").arg(PathAttribution::targetLabel(a.target));
        case SetMean:
            return ms(outside ? a.outsideSetMeanMs : a.setMeanMs);
        case RestMean:
            return ms(outside ? a.outsideRestMeanMs : a.restMeanMs);
        case Difference:
            return ms(difference);
        case OfTotal:
            return share(difference);
        default:
            return {};
        }
    }
    const PathKeyContribution &key = a.keys[size_t(row)];
    switch (column) {
    case Key:
        return a.label(key);
    case SetMean:
        return ms(key.setMeanMs);
    case RestMean:
        return ms(key.restMeanMs);
    case Difference:
        return ms(key.differenceMs);
    case OfTotal:
        return share(key.differenceMs);
    case SetOnPath:
        return FeatureText::share(key.setShareOnPath);
    case RestOnPath:
        return FeatureText::share(key.restShareOnPath);
    case WhenOnPath:
        return pair(key.setMeanOnPathMs, key.restMeanOnPathMs);
    case SlackOffPath:
        return key.setOffPath + key.restOffPath > 0 ? pair(key.setSlackMedianMs, key.restSlackMedianMs)
                                                    : QStringLiteral("\u2013");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant PathAttributionModel::sortValue(int row, Column column) const
{
    const PathAttribution &a = m_attribution;
    if (row == outsideRow() || row == totalRow()) {
        const bool outside = row == outsideRow();
        switch (column) {
        case Key:
            return display(row, column);
        case SetMean:
            return outside ? a.outsideSetMeanMs : a.setMeanMs;
        case RestMean:
            return outside ? a.outsideRestMeanMs : a.restMeanMs;
        case Difference:
            return outside ? a.outsideDifferenceMs : a.sumOfContributions();
        default:
            return {};
        }
    }
    const PathKeyContribution &key = a.keys[size_t(row)];
    switch (column) {
    case Key:
        return a.label(key);
    case SetMean:
        return key.setMeanMs;
    case RestMean:
        return key.restMeanMs;
    case Difference:
    case OfTotal:
        return key.differenceMs;
    case SetOnPath:
        return key.setShareOnPath;
    case RestOnPath:
        return key.restShareOnPath;
    case WhenOnPath:
        return key.setMeanOnPathMs;
    case SlackOffPath:
        return key.setSlackMedianMs;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant PathAttributionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return display(index.row(), column);
    case SortRole:
        return sortValue(index.row(), column);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(column == Key ? Qt::AlignLeft | Qt::AlignVCenter
                                                 : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        const bool suspect = m_attribution.suspect && size_t(index.row()) == *m_attribution.suspect;
        const bool outside = index.row() == outsideRow() && m_attribution.outsideCarriesMost;
        if (!suspect && !outside && index.row() != totalRow())
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole:
        if (column == SlackOffPath)
            return tr("Median, over the workflows where the key's spans are present but off the critical path, of "
                      "the least slack among them: how much later they could end before they would gate completion.");
        if (column == WhenOnPath)
            return tr("Mean critical time of the key in the workflows where it is on the path (set / rest).");
        return {};
    default:
        return {};
    }
}

QVariant PathAttributionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const QString &set = m_attribution.setName;
    const QString &rest = m_attribution.restName;
    // A comparison names its sides (candidate, baseline); the Exceedance
    // dock keeps "set" and "rest".
    if (set != QStringLiteral("set")) {
        const auto capital = [](const QString &name) -> QString { return name.left(1).toUpper() + name.mid(1); };
        switch (Column(section)) {
        case SetMean:
            return tr("%1 mean").arg(capital(set));
        case RestMean:
            return tr("%1 mean").arg(capital(rest));
        case SetOnPath:
            return tr("On path (%1)").arg(set);
        case RestOnPath:
            return tr("On path (%1)").arg(rest);
        case WhenOnPath:
            return tr("When on path (%1 / %2)").arg(set, rest);
        case SlackOffPath:
            return tr("Slack off path (%1 / %2)").arg(set, rest);
        default:
            break;
        }
    }
    switch (Column(section)) {
    case Key:
        return tr("Key");
    case SetMean:
        return tr("Set mean");
    case RestMean:
        return tr("Rest mean");
    case Difference:
        return tr("Difference");
    case OfTotal:
        return tr("Of total");
    case SetOnPath:
        return tr("On path (set)");
    case RestOnPath:
        return tr("On path (rest)");
    case WhenOnPath:
        return tr("When on path (set / rest)");
    case SlackOffPath:
        return tr("Slack off path (set / rest)");
    case ColumnCount:
        break;
    }
    return {};
}
