#include "AnalyseCommand.h"

#include "CliContext.h"
#include "ClickHouseAnalyses.h"

#include "analysis/requests/ProfileReport.h"
#include "remote/TraceSource.h"
#include "report/ReportJson.h"
#include "report/ReportText.h"
#include "scenarios/SeedScenarios.h"

#include <nlohmann/json.hpp>

namespace {

void printJson(const CliContext &context, const nlohmann::json &document)
{
    context.out << QString::fromStdString(document.dump(2)) << '\n';
}

} // namespace

int runAnalyse(const CliContext &context)
{
    if (context.arguments.size() == 1 && computesOnServer(context.arguments.first()))
        return runAnalyseOnClickHouse(context);
    if (!expectOneFile(context, QStringLiteral("analyse")))
        return ExitUsage;
    const QString path = context.arguments.first();
    LoadResult result;
    // The profile reads stamps and token counts, no class attribute.
    if (!loadForCli(context, path, &result, AttributeProjection::none()))
        return ExitFailure;
    const auto &store = *result.store;
    if (!requireRequests(context, path, store))
        return ExitFailure;
    const QString label = TraceSource::displayName(path);
    auto report = profileRequests(store.requests, context.boundary, label, QStringLiteral("trace replay"));
    report.rejected = qint64(store.rejected.size());
    if (context.json) {
        nlohmann::json document = ReportJson::profile(report);
        document["file"] = path.toStdString();
        document["format"] = store.format.toStdString();
        document["rejected_records"] = ReportJson::rejected(store.rejected);
        document["notices"] = ReportJson::notices(store.notices);
        printJson(context, document);
        return ExitOk;
    }
    context.out << ReportText::profile(report) << '\n';
    context.out << ReportText::rejectedSummary(store.rejected) << '\n';
    if (!store.notices.empty())
        context.out << ReportText::notices(store.notices) << '\n';
    return ExitOk;
}

int runBuiltinCases(const CliContext &context)
{
    const LoadResult burst = SeedScenarios::loadJsonl(SeedScenarios::burstJsonl(), QStringLiteral("burst.jsonl"));
    if (!burst.ok() || burst.store->requests.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli: built-in burst case failed to load: %1\n").arg(burst.fatalError);
        return ExitFailure;
    }
    const auto report = profileRequests(burst.store->requests, context.boundary, QStringLiteral("bursty positive case"),
                                        QStringLiteral("replayed burst"));
    const LoadResult negative
        = SeedScenarios::loadJsonl(SeedScenarios::negativeControlJsonl(), QStringLiteral("negative-control.jsonl"));
    const bool rejected = negative.ok() && negative.store->requests.isEmpty() && negative.store->rejected.size() == 1;
    if (context.json) {
        nlohmann::json document = ReportJson::profile(report);
        document["negative_control"]
            = {{"rejected", rejected}, {"records", ReportJson::rejected(negative.store->rejected)}};
        printJson(context, document);
    } else {
        context.out << ReportText::profile(report) << "\n\nNegative control:\n";
        if (rejected)
            context.out << QStringLiteral("rejected as expected: ") << negative.store->rejected.front().toString()
                        << '\n';
        else
            context.out << QStringLiteral("NOT rejected: a clock defect was accepted as a measurement\n");
    }
    return rejected ? ExitOk : ExitFailure;
}
