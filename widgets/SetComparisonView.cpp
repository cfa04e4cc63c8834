#include "SetComparisonView.h"

#include "FeatureComparisonPlot.h"
#include "FeatureText.h"
#include "PathAttributionView.h"
#include "PathTreeView.h"
#include "PhaseAttributionModel.h"
#include "SetComparisonModel.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

QTableView *tableFor(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(title, box);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

} // namespace

SetComparisonView::SetComparisonView(QWidget *parent)
    : QWidget(parent)
    , m_attributes(new SetComparisonModel(this))
    , m_phases(new SetComparisonModel(this))
    , m_attribution(new PhaseAttributionModel(this))
    , m_tabs(new QTabWidget(this))
    , m_excess(new QLabel(this))
    , m_suspect(new QLabel(this))
    , m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("setComparisonView"));
    m_attributeView = tableFor(m_attributes, QStringLiteral("attributeRanking"), this);
    m_phaseView = tableFor(m_phases, QStringLiteral("phaseRanking"), this);
    m_featurePlot = new FeatureComparisonPlot(this);
    auto *tables = new QSplitter(Qt::Vertical, this);
    tables->addWidget(
        titled(tr("Attributes ranked by how they separate the set from the rest"), m_attributeView, this));
    tables->addWidget(titled(tr("Phases ranked by separation"), m_phaseView, this));
    auto *ranking = new QSplitter(Qt::Horizontal, this);
    ranking->addWidget(tables);
    ranking->addWidget(m_featurePlot);
    ranking->setSizes({560, 440});
    for (QTableView *view : {m_attributeView, m_phaseView}) {
        view->setSelectionMode(QAbstractItemView::SingleSelection);
        const bool phase = view == m_phaseView;
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this, phase](const QModelIndex &current) {
                    if (current.isValid())
                        showFeature(phase, current.row());
                });
    }

    auto *attribution = new QWidget(this);
    auto *attributionLayout = new QVBoxLayout(attribution);
    attributionLayout->setContentsMargins(0, 4, 0, 0);
    m_suspect->setObjectName(QStringLiteral("suspectedPhase"));
    for (QLabel *label : {m_excess, m_suspect, m_note}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_note->setText(PhaseAttribution::percentileNote());
    m_note->setStyleSheet(QStringLiteral("QLabel { font-style: italic; }"));
    attributionLayout->addWidget(m_excess);
    QTableView *attributionTable = tableFor(m_attribution, QStringLiteral("phaseAttribution"), this);
    attributionTable->horizontalHeader()->setStretchLastSection(false);
    attributionLayout->addWidget(attributionTable, 1);
    attributionLayout->addWidget(m_suspect);
    attributionLayout->addWidget(m_note);

    m_phaseTab = attribution;
    m_pathAttribution = new PathAttributionView(this);
    m_pathTree = new PathTreeView(this);
    m_tabs->addTab(attribution, tr("Phase attribution"));
    m_tabs->addTab(m_pathAttribution, tr("Critical-path attribution"));
    m_tabs->addTab(m_pathTree, tr("Merged paths"));
    m_tabs->addTab(ranking, tr("Set vs rest"));
    setWorkflowTrace(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    clear();
}

void SetComparisonView::setWorkflowTrace(bool workflows)
{
    m_workflows = workflows;
    const int phase = m_tabs->indexOf(m_phaseTab);
    const int path = m_tabs->indexOf(m_pathAttribution);
    const int tree = m_tabs->indexOf(m_pathTree);
    const bool pathInFront = m_tabs->currentIndex() == path || m_tabs->currentIndex() == tree;
    const bool phaseInFront = m_tabs->currentIndex() == phase;
    m_tabs->setTabVisible(phase, !workflows);
    m_tabs->setTabVisible(path, workflows);
    m_tabs->setTabVisible(tree, workflows);
    // The attribution tab in front stays the attribution tab of its kind.
    if (workflows && phaseInFront)
        m_tabs->setCurrentIndex(path);
    else if (!workflows && pathInFront)
        m_tabs->setCurrentIndex(phase);
}

void SetComparisonView::clear()
{
    m_pathAttribution->clear();
    m_pathTree->clear();
    m_attributes->setRanking({});
    m_phases->setRanking({});
    m_attribution->setAttribution({});
    m_excess->setText(tr("No exceedance set."));
    m_suspect->clear();
    m_featurePlot->clear();
}

void SetComparisonView::showFeature(bool phase, int row)
{
    const SetComparisonModel *model = phase ? m_phases : m_attributes;
    if (row < 0 || row >= model->rowCount()) {
        m_featurePlot->clear();
        return;
    }
    m_featurePlot->setSeparation(model->ranking()[size_t(row)]);
    // One feature at a time: the other list lets go of its pick.
    QTableView *other = phase ? m_attributeView : m_phaseView;
    const QSignalBlocker blocker(other->selectionModel());
    other->selectionModel()->clear();
    other->viewport()->update();
}

void SetComparisonView::setRankings(const SetComparison &comparison)
{
    m_attributes->setRanking(comparison.attributes);
    m_phases->setRanking(comparison.phases);
    // The strongest separator is drawn until the user picks another.
    if (m_attributes->rowCount() > 0)
        showFeature(false, 0);
    else
        showFeature(true, 0);
}

void SetComparisonView::setAnalysis(const ExceedanceAnalysis &analysis)
{
    setRankings(analysis.comparison);
    const PhaseAttribution &a = analysis.attribution;
    m_attribution->setAttribution(a);
    if (analysis.set.isEmpty() || std::isnan(a.differenceMs)) {
        m_excess->setText(tr("No exceedance set to attribute."));
        m_suspect->clear();
        return;
    }
    const QString ms = QStringLiteral("ms");
    m_excess->setText(tr("Mean %1 at the %2 boundary: set %3 (n = %4) \u2212 rest %5 (n = %6) = %7, split exactly "
                         "by phase:")
                          .arg(metricLabel(a.total), boundaryKey(a.boundary), FeatureText::withUnit(a.setMeanMs, ms))
                          .arg(QLocale().toString(a.setN))
                          .arg(FeatureText::withUnit(a.restMeanMs, ms))
                          .arg(QLocale().toString(a.restN))
                          .arg(FeatureText::withUnit(a.differenceMs, ms)));
    QString suspect;
    if (a.suspected) {
        const auto found = std::find_if(a.phases.begin(), a.phases.end(),
                                        [&](const PhaseContribution &c) { return c.phase == *a.suspected; });
        suspect = tr("<b>Suspected phase: %1</b> (%2 of the %3 excess)")
                      .arg(phaseLabel(*a.suspected), FeatureText::withUnit(found->differenceMs, ms),
                           FeatureText::withUnit(a.differenceMs, ms));
    } else if (a.residualCarriesMost) {
        suspect = tr("<b>Most of the excess is time no observed phase covers</b> (residual %1)")
                      .arg(FeatureText::withUnit(a.residualDifferenceMs, ms));
    } else {
        suspect = tr("No phase adds to the excess.");
    }
    if (!a.nextTest.isEmpty())
        suspect += tr("<br>Next test: %1").arg(a.nextTest.toHtmlEscaped());
    m_suspect->setText(suspect);
}
