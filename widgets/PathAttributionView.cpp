#include "PathAttributionView.h"

#include "FeatureText.h"
#include "PathAttributionModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

PathAttributionView::PathAttributionView(QWidget *parent)
    : QWidget(parent)
    , m_model(new PathAttributionModel(this))
    , m_key(new QComboBox(this))
    , m_table(new QTableView(this))
    , m_excess(new QLabel(this))
    , m_suspect(new QLabel(this))
    , m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("pathAttributionView"));
    m_key->setObjectName(QStringLiteral("pathKey"));
    m_table->setObjectName(QStringLiteral("pathAttribution"));
    m_suspect->setObjectName(QStringLiteral("pathSuspect"));
    m_excess->setObjectName(QStringLiteral("pathExcess"));
    m_key->addItem(tr("span kind"), int(SpanKeyKind::Kind));
    m_key->addItem(tr("service"), int(SpanKeyKind::Service));
    m_key->addItem(tr("operation"), int(SpanKeyKind::Operation));
    m_key->addItem(tr("span name (ids and numbers folded)"), int(SpanKeyKind::Name));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    for (QLabel *label : {m_excess, m_suspect, m_note}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_note->setText(tr("Means of path sections add up to the mean total exactly; their percentiles do not."));
    m_note->setToolTip(tr("A workflow's total is the sum of its critical-path sections, so mean differences add up "
                          "exactly; adding percentiles of sections gives a time no workflow had. On path: share of "
                          "workflows where the key holds part of the path."));
    m_note->setStyleSheet(QStringLiteral("QLabel { font-style: italic; }"));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Group critical-path time by"), this));
    top->addWidget(m_key);
    top->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_excess);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_suspect);
    layout->addWidget(m_note);
    connect(m_key, &QComboBox::activated, this, [this] { emit keyKindChanged(keyKind()); });
    clear();
}

SpanKeyKind PathAttributionView::keyKind() const
{
    return SpanKeyKind(m_key->currentData().toInt());
}

void PathAttributionView::setKeyKind(SpanKeyKind kind)
{
    const int index = m_key->findData(int(kind));
    if (index < 0 || index == m_key->currentIndex())
        return;
    m_key->setCurrentIndex(index);
    emit keyKindChanged(kind);
}

void PathAttributionView::clear()
{
    m_model->setAttribution({});
    m_excess->setText(tr("No slow workflows to attribute."));
    m_suspect->clear();
}

void PathAttributionView::showComputing()
{
    m_excess->setText(tr("Computing every workflow's critical path\u2026"));
}

void PathAttributionView::setAttribution(const PathAttribution &a)
{
    m_model->setAttribution(a);
    // The Exceedance dock's slow set and rest, or the Compare dock's
    // candidate and baseline.
    const bool slowSet = a.setName == QStringLiteral("set");
    if (a.isEmpty()) {
        if (slowSet)
            m_excess->setText(a.setN == 0 ? tr("No slow workflow has a critical path to attribute.")
                                          : tr("The rest has no workflow with a critical path to compare with."));
        else
            m_excess->setText(tr("The %1 has no workflow with a critical path to attribute.")
                                  .arg(a.setN == 0 ? a.setName : a.restName));
        m_suspect->clear();
        return;
    }
    const QLocale locale;
    const QString ms = QStringLiteral("ms");
    const QString total = PathAttribution::targetLabel(a.target);
    const QString setName = slowSet ? tr("slow set") : a.setName;
    const QString restName = a.restName;
    QString excess = tr("Mean %1: %8 %2 (n = %3) \u2212 %9 %4 (n = %5) = <b>%6</b>, split exactly over "
                        "critical-path time by %7:")
                         .arg(total, FeatureText::withUnit(a.setMeanMs, ms), locale.toString(a.setN),
                              FeatureText::withUnit(a.restMeanMs, ms), locale.toString(a.restN),
                              FeatureText::withUnit(a.differenceMs, ms), m_key->currentText(), setName, restName);
    if (a.setSkipped + a.restSkipped > 0)
        excess += tr(" (%1 left out: no %2 or no schedulable path)")
                      .arg(locale.toString(a.setSkipped + a.restSkipped), total);
    m_excess->setText(excess);
    QString suspect;
    if (a.suspect) {
        const auto &key = a.keys[*a.suspect];
        const QString keyText = a.label(key).toHtmlEscaped();
        const QString part = FeatureText::withUnit(key.differenceMs, ms);
        const QString whole = FeatureText::withUnit(a.differenceMs, ms);
        const QString setShare = FeatureText::share(key.setShareOnPath);
        const QString restShare = FeatureText::share(key.restShareOnPath);
        suspect = slowSet ? tr("<b>Suspect: %1</b> (%2 of the %3 excess; on the path in %4 of the slow workflows, %5 "
                               "of the rest)")
                                .arg(keyText, part, whole, setShare, restShare)
                          : tr("<b>Suspect: %1</b> (%2 of the %3 difference; on the path in %4 of the %6's "
                               "workflows, %5 of the %7's)")
                                .arg(keyText, part, whole, setShare, restShare, a.setName, a.restName);
    } else if (a.outsideCarriesMost) {
        suspect = tr("<b>Most of the excess lies outside the span tree</b> (%1)")
                      .arg(FeatureText::withUnit(a.outsideDifferenceMs, ms));
    } else if (a.differenceMs < 0.0 && a.largestSaving()) {
        suspect = tr("No suspect: the %1 is faster by %2 on average, most of all in %3 (%4).")
                      .arg(a.setName, FeatureText::withUnit(-a.differenceMs, ms),
                           a.label(*a.largestSaving()).toHtmlEscaped(),
                           FeatureText::withUnit(a.largestSaving()->differenceMs, ms));
    } else {
        suspect = slowSet ? tr("No key is slower on the slow workflows' paths.")
                          : tr("No key is slower on the %1's paths.").arg(a.setName);
    }
    if (!a.nextTest.isEmpty())
        suspect += tr("<br>Next test: %1").arg(a.nextTest.toHtmlEscaped());
    m_suspect->setText(suspect);
}
