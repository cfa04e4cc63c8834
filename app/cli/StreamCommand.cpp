#include "StreamCommand.h"

#include "CliContext.h"

#include "analysis/load/LoadTimeline.h"
#include "analysis/streams/StreamSummary.h"
#include "report/LoadReport.h"
#include "report/StreamReport.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

// A positive number from --name, or `fallback` when it is not given.
bool positiveOption(const CliContext &context, const QString &name, double *value)
{
    if (!context.parser.isSet(name))
        return true;
    bool ok = false;
    const double parsed = context.parser.value(name).toDouble(&ok);
    if (!ok || !(parsed > 0.0) || !std::isfinite(parsed)) {
        context.err << QStringLiteral("tracelane-cli: --%1 expects a positive number, got '%2'\n")
                           .arg(name, context.parser.value(name));
        return false;
    }
    *value = parsed;
    return true;
}

} // namespace

int runStream(const CliContext &context)
{
    if (!expectOneFile(context, QStringLiteral("stream")))
        return ExitUsage;
    StallRule rule;
    double worst = 10;
    if (!positiveOption(context, QStringLiteral("stall-ms"), &rule.minimumMs)
        || !positiveOption(context, QStringLiteral("stall-factor"), &rule.medianFactor)
        || !positiveOption(context, QStringLiteral("worst"), &worst))
        return ExitUsage;
    LoadResult result;
    if (!loadForCli(context, context.arguments.first(), &result)
        || !requireRequests(context, context.arguments.first(), *result.store))
        return ExitFailure;
    const StreamSummary summary
        = StreamAnalysis::summarise(result.store->requests, nullptr, rule, int(worst), context.loadOptions.threads);
    if (context.json) {
        nlohmann::json document = StreamReport::json(summary);
        document["file"] = context.arguments.first().toStdString(); // a sample's URL says so
        context.out << QString::fromStdString(document.dump(2)) << '\n';
    } else
        context.out << StreamReport::text(summary) << '\n';
    return ExitOk;
}

int runLoad(const CliContext &context)
{
    if (!expectOneFile(context, QStringLiteral("load")))
        return ExitUsage;
    double window = 1.0;
    Slo slo;
    if (!positiveOption(context, QStringLiteral("window"), &window)
        || !positiveOption(context, QStringLiteral("slo-ttft"), &slo.ttftMs)
        || !positiveOption(context, QStringLiteral("slo-itl"), &slo.itlMs))
        return ExitUsage;
    LoadResult result;
    if (!loadForCli(context, context.arguments.first(), &result))
        return ExitFailure; // a run whose every request failed still has a load to show
    const TraceStore &store = *result.store;
    const LoadTimeline timeline
        = LoadAnalysis::timeline(store, nullptr, qint64(std::llround(window * 1e9)), slo, context.boundary);
    const BurstEnvelope burst = LoadAnalysis::burstEnvelope(store.requests, nullptr);
    const auto [from, to] = LoadAnalysis::middleOfArrivals(store.requests, nullptr);
    const LittleInWindow little = LoadAnalysis::littleInWindow(store.requests, nullptr, from, to);
    const LittlesLawCheck steadiness = ServiceLoad::littlesLaw(store.requests);
    const LoadReport::Parts parts{timeline, burst, little, steadiness};
    if (context.json) {
        nlohmann::json document = LoadReport::json(parts);
        document["file"] = context.arguments.first().toStdString();
        context.out << QString::fromStdString(document.dump(2)) << '\n';
    } else
        context.out << LoadReport::text(parts) << '\n';
    if (timeline.binCount() > 0 && !context.json && timeline.binNs != qint64(std::llround(window * 1e9)))
        context.err << QStringLiteral("tracelane-cli load: bins widened to %1 s to stay under 20,000\n")
                           .arg(double(timeline.binNs) / 1e9);
    return ExitOk;
}
