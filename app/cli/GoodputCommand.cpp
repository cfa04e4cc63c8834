#include "GoodputCommand.h"

#include "CliContext.h"

#include "analysis/load/ServiceLoad.h"
#include "report/ServiceLoadReport.h"

#include <nlohmann/json.hpp>

#include <cmath>

int runGoodput(const CliContext &context)
{
    if (!expectOneFile(context, QStringLiteral("goodput")))
        return ExitUsage;
    Slo slo;
    double observedInFlight = std::nan("");
    for (const auto &[option, target] :
         {std::pair{QStringLiteral("slo-ttft"), &slo.ttftMs}, std::pair{QStringLiteral("slo-itl"), &slo.itlMs},
          std::pair{QStringLiteral("observed-in-flight"), &observedInFlight}}) {
        if (!context.parser.isSet(option))
            continue;
        bool ok = false;
        const double value = context.parser.value(option).toDouble(&ok);
        if (!ok || value <= 0.0) {
            context.err << QStringLiteral("tracelane-cli: --%1 expects a positive number\n").arg(option);
            return ExitUsage;
        }
        *target = value;
    }
    LoadResult result;
    if (!loadForCli(context, context.arguments.first(), &result))
        return ExitFailure;
    const auto &store = *result.store;
    const Goodput goodput = ServiceLoad::goodput(store.requests, slo, context.boundary, qint64(store.rejected.size()));
    const LittlesLawCheck little = ServiceLoad::littlesLaw(store.requests, observedInFlight);
    if (context.json) {
        nlohmann::json document = ServiceLoadReport::json(goodput, little);
        document["file"] = context.arguments.first().toStdString(); // a sample's URL says so
        context.out << QString::fromStdString(document.dump(2)) << '\n';
    } else
        context.out << ServiceLoadReport::text(goodput, little) << '\n';
    return ExitOk;
}
