#include "WhatIfPanel.h"

#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/WhatIf.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace {

QString ms(qint64 ns)
{
    return ns == kNoTime ? QStringLiteral("n/a") : QString::number(double(ns) / 1e6, 'f', 2);
}

} // namespace

WhatIfPanel::WhatIfPanel(QWidget *parent)
    : QWidget(parent)
    , m_form(new QFormLayout(this))
    , m_change(new QComboBox(this))
    , m_target(new QComboBox(this))
    , m_from(new QComboBox(this))
    , m_phase(new QComboBox(this))
    , m_factor(new QLineEdit(QStringLiteral("0.75"), this))
    , m_tokens(new QSpinBox(this))
    , m_msPerToken(new QDoubleSpinBox(this))
    , m_result(new QLabel(this))
    , m_wholeScope(new QCheckBox(tr("Also every workflow in the scope, at"), this))
    , m_percentile(new QDoubleSpinBox(this))
    , m_population(new QLabel(this))
    , m_predict(new QPushButton(tr("Predict in Compare"), this))
{
    setObjectName(QStringLiteral("whatIfPanel"));
    m_change->setObjectName(QStringLiteral("whatIfChange"));
    m_target->setObjectName(QStringLiteral("whatIfTarget"));
    m_from->setObjectName(QStringLiteral("whatIfFrom"));
    m_phase->setObjectName(QStringLiteral("whatIfPhase"));
    m_factor->setObjectName(QStringLiteral("whatIfFactor"));
    m_result->setObjectName(QStringLiteral("whatIfResult"));
    m_change->addItem(tr("No change"), int(Change::None));
    m_change->addItem(tr("Scale a span"), int(Change::ScaleSpan));
    m_change->addItem(tr("Scale a kind"), int(Change::ScaleKind));
    m_change->addItem(tr("Scale a phase"), int(Change::ScalePhase));
    m_change->addItem(tr("Shorten the final answer"), int(Change::ShortenAnswer));
    m_change->addItem(tr("Make a span wait for another"), int(Change::AddDependency));
    m_factor->setPlaceholderText(tr("0.75, 2/3 or -25%"));
    m_factor->setToolTip(tr("A factor (0.75), an exact fraction (2/3) or a change in per cent (-25%)"));
    m_tokens->setRange(0, 1'000'000);
    m_tokens->setValue(30);
    m_tokens->setSuffix(tr(" tokens"));
    m_msPerToken->setRange(0.0, 10'000.0);
    m_msPerToken->setValue(24.0);
    m_msPerToken->setSuffix(tr(" ms/token"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form->setContentsMargins(4, 4, 4, 4);
    m_form->addRow(tr("What if"), m_change);
    m_form->addRow(tr("Span"), m_target);
    m_form->addRow(tr("Waits for"), m_from);
    m_form->addRow(tr("Phase"), m_phase);
    m_form->addRow(tr("Factor"), m_factor);
    m_form->addRow(tr("Shorter by"), m_tokens);
    m_form->addRow(tr("At"), m_msPerToken);
    m_form->addRow(m_result);
    // The population what-if: the same change on every workflow of the scope.
    m_wholeScope->setObjectName(QStringLiteral("whatIfWholeScope"));
    m_percentile->setObjectName(QStringLiteral("whatIfPercentile"));
    m_population->setObjectName(QStringLiteral("whatIfPopulation"));
    m_wholeScope->setToolTip(tr("Re-schedule every workflow of the scope (the current filter) with the same change, "
                                "spans matched by name, and compare a percentile of the totals before and after"));
    m_percentile->setRange(50.0, 99.9);
    m_percentile->setDecimals(1);
    m_percentile->setValue(95.0);
    m_percentile->setPrefix(QStringLiteral("p"));
    m_population->setWordWrap(true);
    m_population->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *scopeRow = new QHBoxLayout;
    scopeRow->addWidget(m_wholeScope);
    scopeRow->addWidget(m_percentile);
    scopeRow->addStretch(1);
    m_form->addRow(scopeRow);
    m_form->addRow(m_population);
    m_predict->setObjectName(QStringLiteral("whatIfPredict"));
    m_predict->setToolTip(tr("Use this saving at this percentile as the predicted saving of the Compare dock, so a "
                             "candidate trace measured after the change shows it beside the observed one"));
    m_predict->setEnabled(false);
    auto *predictRow = new QHBoxLayout;
    predictRow->addWidget(m_predict);
    predictRow->addStretch(1);
    m_form->addRow(predictRow);
    connect(m_predict, &QPushButton::clicked, this, [this] {
        if (m_shownPopulation)
            emit predictionOffered(m_shownPopulation->q, m_shownPopulation->e2eSavingMs(),
                                   m_shownPopulation->ttftSavingMs());
    });
    connect(m_wholeScope, &QCheckBox::toggled, this, [this](bool on) {
        m_percentile->setEnabled(on);
        if (!on)
            clearPopulation();
        emit populationChanged();
    });
    connect(m_percentile, &QDoubleSpinBox::valueChanged, this, [this] {
        if (m_wholeScope->isChecked())
            emit populationChanged();
    });
    m_percentile->setEnabled(false);

    const auto changed = [this] {
        if (!m_filling)
            emit editsChanged();
    };
    connect(m_change, &QComboBox::currentIndexChanged, this, [this, changed] {
        refillTargets();
        changed();
    });
    connect(m_target, &QComboBox::currentIndexChanged, this, [this, changed] {
        if (!m_filling && Change(m_change->currentData().toInt()) == Change::AddDependency)
            refillWaitsFor();
        changed();
    });
    connect(m_from, &QComboBox::currentIndexChanged, this, changed);
    connect(m_phase, &QComboBox::currentIndexChanged, this, changed);
    connect(m_factor, &QLineEdit::textChanged, this, [this, changed](const QString &text) {
        QString error;
        if (!WhatIfEdit::parseFactor(text, &m_factorValue, &error)) {
            showMessage(error); // the last valid what-if stays drawn
            return;
        }
        changed();
    });
    connect(m_tokens, &QSpinBox::valueChanged, this, changed);
    connect(m_msPerToken, &QDoubleSpinBox::valueChanged, this, changed);
    refillTargets();
}

void WhatIfPanel::setGraph(std::shared_ptr<const SpanGraph> graph)
{
    m_graph = std::move(graph);
    m_preferredSpan = -1;
    m_filling = true;
    m_change->setCurrentIndex(0);
    m_filling = false;
    refillTargets();
    m_result->clear();
}

void WhatIfPanel::setChange(Change change)
{
    m_change->setCurrentIndex(m_change->findData(int(change)));
}

void WhatIfPanel::setFactor(double factor)
{
    m_factor->setText(QString::number(factor, 'g', 10));
}

void WhatIfPanel::setPhase(Phase phase)
{
    if (m_phase->count() == 0)
        m_phase->addItem(phaseLabel(phase), int(phase)); // kept until the list is filled
    m_phase->setCurrentIndex(std::max(0, m_phase->findData(int(phase))));
}

void WhatIfPanel::setTokens(int tokens, double msPerToken)
{
    m_tokens->setValue(tokens);
    m_msPerToken->setValue(msPerToken);
}

void WhatIfPanel::setTargetSpan(qint32 span)
{
    m_preferredSpan = span;
    const int index = m_target->findData(span);
    if (index >= 0)
        m_target->setCurrentIndex(index);
}

void WhatIfPanel::refillTargets()
{
    // Keep what the user chose across a change of kind: the span clicked
    // in the Gantt, the phase.
    m_filling = true;
    const auto change = Change(m_change->currentData().toInt());
    const QVariant phase = m_phase->currentData();
    m_target->clear();
    m_from->clear();
    m_phase->clear();
    if (m_graph) {
        const SpanGraph &graph = *m_graph;
        if (change == Change::ScaleKind) {
            std::set<QString> kinds;
            for (qint32 span = 0; span < graph.spanCount(); ++span)
                kinds.insert(graph.operation(span));
            for (const QString &kind : kinds) {
                if (!kind.isEmpty())
                    m_target->addItem(kind, kind);
            }
        } else {
            if (change == Change::ScalePhase)
                m_target->addItem(tr("every model call"), -1);
            if (change == Change::ShortenAnswer)
                m_target->addItem(tr("the final answer"), -1);
            for (qint32 span = 0; span < graph.spanCount() && span < 5000; ++span)
                m_target->addItem(graph.label(span), span);
        }
        std::set<int> phases;
        for (qint32 span = 0; span < graph.spanCount() && span < 100'000; ++span) {
            for (const auto &interval : graph.phases(span))
                phases.insert(int(interval.phase));
        }
        for (const int known : phases)
            m_phase->addItem(phaseLabel(Phase(known)), known);
        if (const int index = m_phase->findData(phase); index >= 0)
            m_phase->setCurrentIndex(index);
        qint32 target = m_preferredSpan;
        qint32 waitsFor = -1;
        if (change == Change::AddDependency && target < 0)
            std::tie(target, waitsFor) = defaultDependency();
        if (const int index = m_target->findData(target); index >= 0 && change != Change::ScaleKind)
            m_target->setCurrentIndex(index);
        if (change == Change::AddDependency) {
            refillWaitsFor();
            if (const int index = m_from->findData(waitsFor); index >= 0)
                m_from->setCurrentIndex(index);
        }
    }
    m_filling = false;
    updateVisibility();
}

bool WhatIfPanel::related(qint32 a, qint32 b) const
{
    const auto above = [this](qint32 span, qint32 ancestor) {
        for (qint32 up = span; up >= 0; up = m_graph->parent(up)) {
            if (up == ancestor)
                return true;
        }
        return false;
    };
    return above(a, b) || above(b, a);
}

void WhatIfPanel::refillWaitsFor()
{
    const bool filling = m_filling;
    m_filling = true;
    const QVariant kept = m_from->currentData();
    m_from->clear();
    const qint32 target = m_target->currentData().toInt();
    if (m_graph && target >= 0) {
        for (qint32 span = 0; span < m_graph->spanCount() && span < 5000; ++span) {
            if (!related(span, target))
                m_from->addItem(m_graph->label(span), span);
        }
    }
    if (const int index = m_from->findData(kept); index >= 0)
        m_from->setCurrentIndex(index);
    m_filling = filling;
    if (m_graph && target >= 0 && m_from->count() == 0)
        showMessage(tr("'%1' has no other span to wait for: every other span is its ancestor or descendant, which "
                       "the tree already orders.")
                        .arg(m_graph->label(target)));
}

std::pair<qint32, qint32> WhatIfPanel::defaultDependency() const
{
    std::pair<qint32, qint32> best{-1, -1};
    if (!m_graph)
        return best;
    const qint32 n = std::min(m_graph->spanCount(), 5000);
    // Siblings grouped by parent (roots under -1).
    std::vector<std::pair<qint32, qint32>> byParent;
    byParent.reserve(size_t(std::max(n, 0)));
    for (qint32 span = 0; span < n; ++span)
        byParent.emplace_back(m_graph->parent(span), span);
    std::sort(byParent.begin(), byParent.end());
    qint64 longest = -1;
    for (size_t first = 0; first < byParent.size();) {
        size_t last = first;
        while (last < byParent.size() && byParent[last].first == byParent[first].first)
            ++last;
        for (size_t i = first; i < last; ++i) {
            for (size_t j = first; j < last; ++j) {
                const qint32 a = byParent[i].second;
                const qint32 b = byParent[j].second;
                // a ends first and b overlaps it: "a waits for b" moves a after b.
                const bool overlap = m_graph->start(a) < m_graph->end(b) && m_graph->start(b) < m_graph->end(a);
                if (a == b || !overlap || m_graph->end(a) > m_graph->end(b)
                    || (m_graph->end(a) == m_graph->end(b) && a > b))
                    continue;
                if (const qint64 length = m_graph->end(b) - m_graph->start(b); length > longest) {
                    longest = length;
                    best = {a, b};
                }
            }
        }
        first = last;
    }
    if (best.first >= 0)
        return best;
    // No parallel siblings: the latest-starting span that has another to wait
    // for, waiting for the one that ended last before it started.
    for (qint32 target = 0; target < n; ++target) {
        if (best.first >= 0 && m_graph->start(target) <= m_graph->start(best.first))
            continue;
        qint32 from = -1;
        for (qint32 span = 0; span < n; ++span) {
            if (related(span, target))
                continue;
            const bool before = m_graph->end(span) <= m_graph->start(target);
            const bool fromBefore = from >= 0 && m_graph->end(from) <= m_graph->start(target);
            if (from < 0 || (before && (!fromBefore || m_graph->end(span) > m_graph->end(from))))
                from = span;
        }
        if (from >= 0)
            best = {target, from};
    }
    return best;
}

void WhatIfPanel::updateVisibility()
{
    const auto change = Change(m_change->currentData().toInt());
    m_form->setRowVisible(m_target, change != Change::None);
    m_form->setRowVisible(m_from, change == Change::AddDependency);
    m_form->setRowVisible(m_phase, change == Change::ScalePhase);
    m_form->setRowVisible(m_factor,
                          change == Change::ScaleSpan || change == Change::ScaleKind || change == Change::ScalePhase);
    m_form->setRowVisible(m_tokens, change == Change::ShortenAnswer);
    m_form->setRowVisible(m_msPerToken, change == Change::ShortenAnswer);
}

SpanSelector WhatIfPanel::spanSelector(int comboIndex, bool byName) const
{
    const QComboBox *combo = comboIndex == 0 ? m_target : m_from;
    if (combo->currentIndex() < 0)
        return {};
    const qint32 span = combo->currentData().toInt();
    if (!m_graph || span < 0 || span >= m_graph->spanCount())
        return {};
    if (byName)
        return {m_graph->label(span), 0};
    // Its id names exactly this span; without one, its name and rank.
    const QString id = m_graph->idText(span);
    return {id.isEmpty() ? m_graph->name(span) : id, 0};
}

std::vector<WhatIfEdit> WhatIfPanel::edits() const
{
    return editsFor(false);
}

std::vector<WhatIfEdit> WhatIfPanel::populationEdits() const
{
    return editsFor(true);
}

bool WhatIfPanel::appliesToPopulation() const
{
    return m_wholeScope->isChecked();
}

void WhatIfPanel::setAppliesToPopulation(bool on)
{
    m_wholeScope->setChecked(on);
}

double WhatIfPanel::populationPercentile() const
{
    return m_percentile->value() / 100.0;
}

void WhatIfPanel::setPopulationPercentile(double q)
{
    m_percentile->setValue(q * 100.0);
}

void WhatIfPanel::clearPopulation()
{
    m_population->clear();
    m_shownPopulation.reset();
    m_predict->setEnabled(false);
}

void WhatIfPanel::showPopulationMessage(const QString &message)
{
    clearPopulation();
    m_population->setText(message.toHtmlEscaped());
}

void WhatIfPanel::showPopulation(const PopulationWhatIfResult &result, qint64 scopeWorkflows)
{
    const QLocale locale;
    const QString p = QStringLiteral("p") + locale.toString(result.q * 100.0, 'g', 4);
    const auto line = [&](const QString &metric, double before, double after) {
        if (std::isnan(before))
            return tr("<b>%1 %2</b> not recorded in these workflows (no token times)").arg(p, metric);
        const double saving = before - after;
        return tr("<b>%1 %2</b> %3 \u2192 %4 ms (%5)")
            .arg(p, metric, locale.toString(before, 'f', 2), locale.toString(after, 'f', 2),
                 saving >= 0 ? tr("saves %1 ms").arg(locale.toString(saving, 'f', 2))
                             : tr("costs %1 ms").arg(locale.toString(-saving, 'f', 2)));
    };
    QStringList lines;
    lines << tr("Across the %1 workflows of the scope (%2 changed by the what-if%3):")
                 .arg(locale.toString(scopeWorkflows), locale.toString(result.changed),
                      result.failed > 0 ? tr(", %1 could not be re-scheduled").arg(locale.toString(result.failed))
                                        : QString());
    lines << line(QStringLiteral("E2E"), result.e2eBeforeMs, result.e2eAfterMs);
    lines << line(QStringLiteral("TTFT"), result.ttftBeforeMs, result.ttftAfterMs);
    if (result.changed == 0)
        lines << tr("<span style='color:#b00020'>No workflow has a span matching the change (spans are matched by "
                    "name or kind).</span>");
    m_population->setText(lines.join(QStringLiteral("<br>")));
    m_shownPopulation = result;
    m_predict->setEnabled(result.changed > 0);
}

std::vector<WhatIfEdit> WhatIfPanel::editsFor(bool byName) const
{
    WhatIfEdit edit;
    switch (Change(m_change->currentData().toInt())) {
    case Change::None:
        return {};
    case Change::ScaleSpan:
        edit.kind = WhatIfEdit::Kind::ScaleSpans;
        edit.target = spanSelector(0, byName);
        break;
    case Change::ScaleKind:
        edit.kind = WhatIfEdit::Kind::ScaleSpans;
        edit.target = {m_target->currentData().toString(), 0};
        break;
    case Change::ScalePhase:
        edit.kind = WhatIfEdit::Kind::ScalePhase;
        edit.target = spanSelector(0, byName);
        edit.phase = Phase(m_phase->currentData().toInt());
        break;
    case Change::ShortenAnswer:
        edit.kind = WhatIfEdit::Kind::ShortenAnswer;
        edit.target = spanSelector(0, byName);
        edit.tokens = m_tokens->value();
        edit.msPerToken = m_msPerToken->value();
        break;
    case Change::AddDependency:
        edit.kind = WhatIfEdit::Kind::AddDependency;
        edit.target = spanSelector(0, byName);
        edit.from = spanSelector(1, byName);
        if (edit.from.isEmpty())
            return {};
        break;
    }
    edit.factor = m_factorValue;
    if (edit.kind != WhatIfEdit::Kind::ShortenAnswer && edit.kind != WhatIfEdit::Kind::ScalePhase
        && edit.target.isEmpty())
        return {};
    return {edit};
}

void WhatIfPanel::showOutcome(const WhatIfOutcome &outcome)
{
    if (!outcome.ok()) {
        showMessage(tr("Cannot re-schedule: %1").arg(outcome.error));
        return;
    }
    QStringList lines;
    for (const QString &applied : outcome.applied)
        lines << applied.toHtmlEscaped();
    for (const QString &unmatched : outcome.unmatched)
        lines << QStringLiteral("<span style='color:#b00020'>%1</span>").arg(unmatched.toHtmlEscaped());
    const auto saving = [](qint64 ns) {
        if (ns == kNoTime)
            return QString();
        return ns >= 0 ? tr("saves %1 ms").arg(ms(ns)) : tr("costs %1 ms").arg(ms(-ns));
    };
    lines << tr("<b>E2E</b> %1 → %2 ms (%3)")
                 .arg(ms(outcome.before.e2e()), ms(outcome.after.e2e()), saving(outcome.e2eSaving()));
    if (outcome.before.ttft() == kNoTime)
        lines << tr("<b>TTFT</b> not recorded in this workflow (no model call has a token time)");
    else
        lines << tr("<b>TTFT</b> %1 → %2 ms (%3)")
                     .arg(ms(outcome.before.ttft()), ms(outcome.after.ttft()), saving(outcome.ttftSaving()));
    m_result->setText(lines.join(QStringLiteral("<br>")));
}

void WhatIfPanel::showMessage(const QString &message)
{
    m_result->setText(message.toHtmlEscaped());
}

int WhatIfPanel::comboIndexOf(const SpanSelector &selector, bool from) const
{
    const QComboBox *combo = from ? m_from : m_target;
    if (selector.isEmpty())
        return combo->findData(-1); // "every model call", "the final answer"
    if (!m_graph)
        return -1;
    const std::vector<qint32> spans = selector.resolve(*m_graph);
    return spans.size() == 1 ? combo->findData(spans.front()) : -1;
}

bool WhatIfPanel::setEdit(const WhatIfEdit &edit)
{
    if (!m_graph)
        return false;
    // edits() names a kind by its operation and a span by its id; a text
    // that is an operation and no span's id is a kind.
    bool isKind = false;
    if (edit.kind == WhatIfEdit::Kind::ScaleSpans) {
        bool isSpanId = false;
        for (qint32 span = 0; span < m_graph->spanCount() && !isSpanId; ++span) {
            isSpanId = m_graph->idText(span) == edit.target.text;
            isKind = isKind || m_graph->operation(span) == edit.target.text;
        }
        isKind = isKind && !isSpanId && edit.target.ordinal == 0;
    }
    Change change = Change::ScaleSpan;
    switch (edit.kind) {
    case WhatIfEdit::Kind::ScaleSpans:
        change = isKind ? Change::ScaleKind : Change::ScaleSpan;
        break;
    case WhatIfEdit::Kind::ScalePhase:
        change = Change::ScalePhase;
        break;
    case WhatIfEdit::Kind::ShortenAnswer:
        change = Change::ShortenAnswer;
        break;
    case WhatIfEdit::Kind::AddDependency:
        change = Change::AddDependency;
        break;
    }
    // Filled quietly, then one editsChanged: the workflow panel runs it once.
    m_filling = true;
    m_change->setCurrentIndex(m_change->findData(int(change)));
    m_filling = false;
    refillTargets();
    m_filling = true;
    const int target = isKind ? m_target->findData(edit.target.text) : comboIndexOf(edit.target, false);
    int from = 0;
    if (target >= 0 && edit.kind == WhatIfEdit::Kind::AddDependency) {
        // "Waits for" lists only the spans the target could wait for.
        m_target->setCurrentIndex(target);
        refillWaitsFor();
        from = comboIndexOf(edit.from, true);
    }
    const bool found = target >= 0 && from >= 0;
    if (found) {
        m_target->setCurrentIndex(target);
        if (edit.kind == WhatIfEdit::Kind::AddDependency)
            m_from->setCurrentIndex(from);
        if (edit.kind == WhatIfEdit::Kind::ScalePhase)
            m_phase->setCurrentIndex(std::max(0, m_phase->findData(int(edit.phase))));
        m_factor->setText(QString::number(edit.factor, 'g', 12));
        m_factorValue = edit.factor;
        m_tokens->setValue(edit.tokens);
        m_msPerToken->setValue(edit.msPerToken);
    } else {
        m_change->setCurrentIndex(m_change->findData(int(Change::None)));
    }
    m_filling = false;
    updateVisibility();
    emit editsChanged();
    return found;
}
