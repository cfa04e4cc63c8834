#pragma once

#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/WhatIfEdit.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class SpanGraph;
struct WhatIfOutcome;

// Controls for one what-if on the workflow being shown: scale a span, a
// kind or a phase, shorten the final answer, or make one span wait for
// another; and the outcome (new E2E and TTFT, savings). It only describes
// the change (edits()); the workflow panel runs it.
class WhatIfPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Change { None, ScaleSpan, ScaleKind, ScalePhase, ShortenAnswer, AddDependency };

    explicit WhatIfPanel(QWidget *parent = nullptr);

    void setGraph(std::shared_ptr<const SpanGraph> graph);
    // Makes `span` the target (a click in the Gantt).
    void setTargetSpan(qint32 span);
    void setChange(Change change);
    void setFactor(double factor);
    void setPhase(Phase phase);
    void setTokens(int tokens, double msPerToken);
    // Shows exactly `edit` (a session reopened): the inverse of edits().
    // False when its spans are not in the graph.
    bool setEdit(const WhatIfEdit &edit);

    std::vector<WhatIfEdit> edits() const;
    void showOutcome(const WhatIfOutcome &outcome);
    void showMessage(const QString &message);

    // The population what-if: the same change applied to every workflow of
    // the scope, judged at a percentile of the totals. Spans are named by
    // their name (not their id, which only one workflow has).
    bool appliesToPopulation() const;
    void setAppliesToPopulation(bool on);
    double populationPercentile() const;    // 0.5 .. 0.999
    void setPopulationPercentile(double q); // clamped to 0.5 .. 0.999
    std::vector<WhatIfEdit> populationEdits() const;
    void showPopulation(const PopulationWhatIfResult &result, qint64 scopeWorkflows);
    void showPopulationMessage(const QString &message);
    QLabel *populationLabel() const { return m_population; }
    // "Predict in Compare": enabled while a population result is shown.
    QPushButton *predictButton() const { return m_predict; }

signals:
    void editsChanged();
    void populationChanged();
    // The population result shown, offered as the predicted saving of a
    // before/after comparison at its percentile (ms; NaN: not recorded).
    void predictionOffered(double q, double e2eSavingMs, double ttftSavingMs);

private:
    void refillTargets();
    // "Waits for" lists the spans the target could wait for: neither its
    // ancestors nor its descendants (they are ordered by the tree already).
    void refillWaitsFor();
    // Two overlapping siblings, the one ending first waiting for the other
    // (the product's "account retrieval waits for policy retrieval"); else
    // the latest-starting span waiting for the last span that ended before
    // it; -1s when every span is related to every other.
    std::pair<qint32, qint32> defaultDependency() const;
    bool related(qint32 a, qint32 b) const;
    void updateVisibility();
    void clearPopulation();
    SpanSelector spanSelector(int comboIndex, bool byName = false) const;
    std::vector<WhatIfEdit> editsFor(bool byName) const;
    int comboIndexOf(const SpanSelector &selector, bool from) const;

    std::shared_ptr<const SpanGraph> m_graph;
    QFormLayout *m_form = nullptr;
    QComboBox *m_change = nullptr;
    QComboBox *m_target = nullptr;
    QComboBox *m_from = nullptr;
    QComboBox *m_phase = nullptr;
    QLineEdit *m_factor = nullptr; // "0.75", "2/3" or "-25%", as on the command line
    QSpinBox *m_tokens = nullptr;
    QDoubleSpinBox *m_msPerToken = nullptr;
    QLabel *m_result = nullptr;
    QCheckBox *m_wholeScope = nullptr;
    QDoubleSpinBox *m_percentile = nullptr;
    QLabel *m_population = nullptr;
    QPushButton *m_predict = nullptr;
    std::optional<PopulationWhatIfResult> m_shownPopulation;
    double m_factorValue = 0.75; // the last factor that parsed
    qint32 m_preferredSpan = -1;
    bool m_filling = false;
};
