#include "WhatIf.h"

#include "TimeScaling.h"

#include <algorithm>

namespace {

// Drops spans below another selected span: scaling a subtree once is
// enough, and "every retrieval" must not shrink a nested retrieval twice.
std::vector<qint32> outermost(const SpanTree &tree, std::vector<qint32> spans)
{
    std::vector<quint8> selected(size_t(tree.spanCount()), 0);
    for (const qint32 span : spans)
        selected[size_t(span)] = 1;
    std::vector<quint8> covered(size_t(tree.spanCount()), 0);
    for (const qint32 span : tree.preorder()) {
        const qint32 parent = tree.parent(span);
        covered[size_t(span)] = parent >= 0 && (selected[size_t(parent)] != 0 || covered[size_t(parent)] != 0);
    }
    std::erase_if(spans, [&covered](qint32 span) { return covered[size_t(span)] != 0; });
    return spans;
}

qsizetype phaseIndex(const SpanGraph &graph, qint32 span, Phase phase)
{
    const auto phases = graph.phases(span);
    for (size_t k = 0; k < phases.size(); ++k) {
        if (phases[k].phase == phase)
            return qsizetype(k);
    }
    return -1;
}

QString spanList(const SpanGraph &graph, const std::vector<qint32> &spans)
{
    QStringList labels;
    for (const qint32 span : spans) {
        if (labels.size() == 3) {
            labels.append(QStringLiteral("%1 more").arg(spans.size() - 3));
            break;
        }
        labels.append(QStringLiteral("'%1'").arg(graph.label(span)));
    }
    return labels.join(QStringLiteral(", "));
}

// Adds hypothetical dependencies to a copy of the graph and schedules it;
// nullopt (and no error) when the what-if adds none.
std::optional<WorkflowSchedule> withDependencies(const WorkflowSchedule &schedule, std::span<const WhatIfEdit> edits,
                                                 WhatIfOutcome *outcome)
{
    const SpanGraph &graph = schedule.graph();
    std::shared_ptr<SpanGraph> changed;
    for (const auto &edit : edits) {
        if (edit.kind != WhatIfEdit::Kind::AddDependency)
            continue;
        const auto from = edit.from.resolve(graph);
        const auto to = edit.target.resolve(graph);
        if (from.empty() || to.empty()) {
            outcome->unmatched.append(QStringLiteral("%1: no span matches %2")
                                          .arg(edit.toString(), (from.empty() ? edit.from : edit.target).toString()));
            continue;
        }
        // The parent relation already orders a span and its ancestors.
        std::vector<std::pair<qint32, qint32>> pairs;
        for (const qint32 f : from) {
            for (const qint32 t : to) {
                if (!schedule.tree().contains(f, t) && !schedule.tree().contains(t, f))
                    pairs.emplace_back(f, t);
            }
        }
        if (pairs.empty()) {
            outcome->unmatched.append(QStringLiteral("%1 waits for %2: a span already waits for its ancestors and "
                                                     "its descendants")
                                          .arg(spanList(graph, to), spanList(graph, from)));
            continue;
        }
        if (!changed)
            changed = std::make_shared<SpanGraph>(graph);
        for (const auto &[f, t] : pairs)
            changed->addDependency({f, t, true});
        outcome->applied.append(QStringLiteral("%1 now waits for %2").arg(spanList(graph, to), spanList(graph, from)));
    }
    if (!changed)
        return std::nullopt;
    QString error;
    auto rebuilt = WorkflowSchedule::build(changed, &error);
    if (!rebuilt)
        outcome->error = error;
    return rebuilt;
}

void applyScaling(const WorkflowSchedule &schedule, const WhatIfEdit &edit, TimeScaling *scaling,
                  WhatIfOutcome *outcome)
{
    const SpanGraph &graph = schedule.graph();
    switch (edit.kind) {
    case WhatIfEdit::Kind::AddDependency:
        return;
    case WhatIfEdit::Kind::ScaleSpans: {
        const auto spans = outermost(schedule.tree(), edit.target.resolve(graph));
        if (spans.empty() || edit.target.isEmpty()) {
            outcome->unmatched.append(QStringLiteral("%1: no span or kind matches").arg(edit.toString()));
            return;
        }
        for (const qint32 span : spans)
            scaling->scaleSpan(span, edit.factor);
        outcome->applied.append(QStringLiteral("%1 ×%2").arg(spanList(graph, spans)).arg(edit.factor, 0, 'g', 6));
        return;
    }
    case WhatIfEdit::Kind::ScalePhase: {
        std::vector<qint32> changed;
        for (const qint32 span : edit.target.resolve(graph)) {
            const qsizetype index = phaseIndex(graph, span, edit.phase);
            if (index < 0)
                continue;
            scaling->scalePhase(span, index, edit.factor);
            changed.push_back(span);
        }
        if (changed.empty()) {
            outcome->unmatched.append(
                QStringLiteral("%1: no selected span has a %2 phase").arg(edit.toString(), phaseKey(edit.phase)));
            return;
        }
        outcome->applied.append(QStringLiteral("%1 of %2 ×%3")
                                    .arg(phaseKey(edit.phase), spanList(graph, changed))
                                    .arg(edit.factor, 0, 'g', 6));
        return;
    }
    case WhatIfEdit::Kind::ShortenAnswer: {
        std::vector<qint32> spans;
        if (edit.target.isEmpty()) {
            if (const qint32 answer = WhatIf::finalAnswerSpan(graph); answer >= 0)
                spans.push_back(answer);
        } else {
            spans = edit.target.resolve(graph);
        }
        const double cut = double(edit.tokens) * edit.msPerToken * 1e6;
        std::vector<qint32> changed;
        for (const qint32 span : spans) {
            const qsizetype index = phaseIndex(graph, span, Phase::Stream);
            if (index < 0)
                continue;
            const auto &stream = graph.phases(span)[size_t(index)];
            const double length = double(stream.end - stream.begin);
            if (length <= 0.0)
                continue;
            scaling->scalePhase(span, index, std::max(0.0, length - cut) / length);
            changed.push_back(span);
        }
        if (changed.empty()) {
            outcome->unmatched.append(QStringLiteral("%1: no selected span has a stream phase").arg(edit.toString()));
            return;
        }
        outcome->applied.append(QStringLiteral("answer of %1 %2 tokens shorter at %3 ms/token")
                                    .arg(spanList(graph, changed))
                                    .arg(edit.tokens)
                                    .arg(edit.msPerToken, 0, 'g', 6));
        return;
    }
    }
}

} // namespace

namespace WhatIf {

qint32 finalAnswerSpan(const SpanGraph &graph)
{
    qint32 answer = -1;
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (phaseIndex(graph, span, Phase::Stream) >= 0 && (answer < 0 || graph.end(span) >= graph.end(answer)))
            answer = span;
    }
    return answer;
}

WhatIfOutcome run(const WorkflowSchedule &schedule, std::span<const WhatIfEdit> edits)
{
    WhatIfOutcome outcome;
    outcome.before = schedule.timing();
    outcome.pathBefore = schedule.criticalPath();
    const auto rebuilt = withDependencies(schedule, edits, &outcome);
    if (!outcome.ok())
        return outcome;
    const WorkflowSchedule *changed = rebuilt ? &*rebuilt : &schedule;
    TimeScaling scaling(changed->graph(), changed->tree());
    for (const auto &edit : edits)
        applyScaling(*changed, edit, &scaling, &outcome);
    const auto delays = scaling.delays(changed->events());
    const auto times = changed->events().schedule(delays);
    outcome.after = changed->timing(times, delays, &scaling);
    outcome.pathAfter = changed->criticalPath(times);
    outcome.slackAfter = changed->slack(times, delays);
    const qint32 spans = changed->graph().spanCount();
    outcome.startAfter.resize(size_t(spans));
    outcome.endAfter.resize(size_t(spans));
    for (qint32 span = 0; span < spans; ++span) {
        outcome.startAfter[size_t(span)] = times[size_t(changed->events().startNode(span))];
        outcome.endAfter[size_t(span)] = times[size_t(changed->events().endNode(span))];
    }
    return outcome;
}

} // namespace WhatIf
