#include "WhatIfCommand.h"

#include "CliContext.h"
#include "WorkflowOptions.h"

#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/SpanGraphBuilder.h"
#include "report/WorkflowReportJson.h"
#include "report/WorkflowReportText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string_view>

namespace {

bool parseEdits(const CliContext &context, std::vector<WhatIfEdit> *edits, QString *error)
{
    using Parse = bool (*)(const QString &, WhatIfEdit *, QString *);
    const std::pair<QString, Parse> options[] = {
        {QStringLiteral("add-dependency"), &WhatIfEdit::parseAddDependency},
        {QStringLiteral("scale"), &WhatIfEdit::parseScale},
        {QStringLiteral("scale-phase"), &WhatIfEdit::parseScalePhase},
        {QStringLiteral("shorten-answer"), &WhatIfEdit::parseShortenAnswer},
    };
    for (const auto &[name, parse] : options) {
        const QStringList values = context.parser.values(name);
        for (const QString &value : values) {
            WhatIfEdit edit;
            if (!parse(value, &edit, error)) {
                *error = QStringLiteral("--%1 %2").arg(name, *error);
                return false;
            }
            edits->push_back(edit);
        }
    }
    if (edits->empty()) {
        *error = QStringLiteral("nothing to change: give --scale, --scale-phase, --shorten-answer or "
                                "--add-dependency");
        return false;
    }
    return true;
}

bool parsePercentile(const CliContext &context, double *q, QString *error)
{
    const QString text = context.parser.value(QStringLiteral("percentile"));
    bool ok = false;
    double value = text.toDouble(&ok);
    if (ok && value > 1.0 && value <= 100.0)
        value /= 100.0;
    if (!ok || !(value > 0.0 && value <= 1.0)) {
        *error = QStringLiteral("--percentile '%1': expected a value in (0, 1] or (1, 100]").arg(text);
        return false;
    }
    *q = value;
    return true;
}

// The kinds and names the workflows' spans have, most frequent first (at
// most eight of each), so a change that matched nothing can be written again.
QString spanVocabulary(const TraceStore &store, const std::vector<qint32> &workflows)
{
    std::map<std::string_view, qint64> kinds;
    std::map<std::string_view, qint64> names;
    const SpanTable &spans = store.spans;
    for (const qint32 workflow : workflows) {
        const qint32 first = store.workflows.firstSpan[size_t(workflow)];
        for (qint32 row = first; row < first + store.workflows.spanCount[size_t(workflow)]; ++row) {
            if (!spans.operationUtf8(row).empty())
                ++kinds[spans.operationUtf8(row)];
            ++names[spans.nameUtf8(row)];
        }
    }
    const auto mostFrequent = [](const std::map<std::string_view, qint64> &counts) {
        std::vector<std::pair<std::string_view, qint64>> sorted(counts.begin(), counts.end());
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const auto &a, const auto &b) { return a.second > b.second; });
        QStringList listed;
        for (size_t i = 0; i < sorted.size() && i < 8; ++i)
            listed << QStringLiteral("%1 (%2)")
                          .arg(QString::fromUtf8(sorted[i].first.data(), qsizetype(sorted[i].first.size())))
                          .arg(sorted[i].second);
        if (sorted.size() > 8)
            listed << QStringLiteral("%1 more").arg(sorted.size() - 8);
        return listed.isEmpty() ? QStringLiteral("none") : listed.join(QStringLiteral(", "));
    };
    return QStringLiteral("  span kinds here: %1\n  span names here: %2\n")
        .arg(mostFrequent(kinds), mostFrequent(names));
}

} // namespace

int runWhatIf(const CliContext &context)
{
    if (!expectOneFile(context, QStringLiteral("whatif")))
        return ExitUsage;
    std::vector<WhatIfEdit> edits;
    double q = 0.95;
    QString error;
    if (!parseEdits(context, &edits, &error) || !parsePercentile(context, &q, &error)) {
        context.err << QStringLiteral("tracelane-cli whatif: %1\n\n").arg(error) << context.parser.helpText();
        return ExitUsage;
    }
    WorkflowInput input;
    if (!loadWorkflows(context, QStringLiteral("whatif"), &input))
        return ExitFailure;
    const QString &path = input.path;
    const TraceStore &store = *input.load.store;
    const std::vector<qint32> &workflows = input.workflows;

    const SpanGraphBuilder builder(store);
    PopulationWhatIf population(edits);
    std::optional<WorkflowSchedule> single;
    WhatIfOutcome singleOutcome;
    for (const qint32 workflow : workflows) {
        const QString id = store.workflows.traceIdText(workflow);
        auto schedule = WorkflowSchedule::build(builder.build(workflow), &error);
        if (!schedule) {
            population.addFailure(id, error);
            continue;
        }
        const WhatIfOutcome &outcome = population.add(*schedule);
        if (!outcome.ok())
            continue;
        if (workflows.size() == 1) {
            singleOutcome = outcome;
            single = std::move(schedule);
        }
    }
    const PopulationWhatIfResult summary = population.result(q);
    for (const QString &failure : summary.errors)
        context.err << QStringLiteral("tracelane-cli: %1: workflow %2\n").arg(path, failure);
    if (summary.changed == 0) {
        context.err << QStringLiteral("tracelane-cli: %1: the what-if changes nothing in %2 workflow(s)\n")
                           .arg(path)
                           .arg(summary.workflows);
        for (const QString &unmatched : singleOutcome.unmatched)
            context.err << QStringLiteral("  %1\n").arg(unmatched);
        if (workflows.size() > 1)
            context.err << spanVocabulary(store, workflows);
        return ExitFailure;
    }

    const QString workflowId = store.workflows.traceIdText(workflows.front());
    if (context.json) {
        nlohmann::json described = nlohmann::json::array();
        for (const auto &edit : edits)
            described.push_back(edit.toString().toStdString());
        nlohmann::json document = {{"file", path.toStdString()},
                                   {"edits", described},
                                   {"population", WorkflowReportJson::population(summary)}};
        if (single)
            document["workflow"] = WorkflowReportJson::whatIf(*single, singleOutcome, workflowId);
        context.out << QString::fromStdString(document.dump(2)) << '\n';
        return ExitOk;
    }
    if (single)
        context.out << WorkflowReportText::whatIf(*single, singleOutcome, workflowId) << '\n';
    if (workflows.size() > 1)
        context.out << (single ? QStringLiteral("\n") : QString()) << WorkflowReportText::population(summary) << '\n';
    return ExitOk;
}
