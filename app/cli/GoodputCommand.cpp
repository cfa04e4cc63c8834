#include "GoodputCommand.h"

#include "CliContext.h"
#include "ClickHouseAnalyses.h"

#include "analysis/load/ServiceLoad.h"
#include "clickhouse/ClickHouseClient.h"
#include "clickhouse/ServerGoodput.h"
#include "clickhouse/ServerRequests.h"
#include "report/ServiceLoadReport.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

void print(const CliContext &context, const Goodput &goodput, const LittlesLawCheck &little)
{
    if (context.json) {
        nlohmann::json document = ServiceLoadReport::json(goodput, little);
        document["file"] = context.arguments.first().toStdString(); // a sample's URL says so
        context.out << QString::fromStdString(document.dump(2)) << '\n';
    } else
        context.out << ServiceLoadReport::text(goodput, little) << '\n';
}

// Tracelane's table on a server: the figures computed there (ServerGoodput).
int goodputOnServer(const CliContext &context, const Slo &slo, double observedInFlight)
{
    ClickHouseSource source;
    if (const int code = openServerSource(context, QStringLiteral("goodput"), &source); code >= 0)
        return code;
    const ClickHouseClient client(source);
    const ServerRequests requests(client);
    Goodput goodput;
    LittlesLawCheck little;
    QString error;
    if (!ServerGoodput::compute(requests, slo, context.boundary, observedInFlight, &goodput, &little, &error)) {
        context.err << QStringLiteral("tracelane-cli goodput: %1\n").arg(error);
        return ExitFailure;
    }
    print(context, goodput, little);
    return ExitOk;
}

} // namespace

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
    if (computesOnServer(context.arguments.first()))
        return goodputOnServer(context, slo, observedInFlight);
    LoadResult result;
    if (!loadForCli(context, context.arguments.first(), &result))
        return ExitFailure;
    const auto &store = *result.store;
    const Goodput goodput = ServiceLoad::goodput(store.requests, slo, context.boundary, qint64(store.rejected.size()));
    const LittlesLawCheck little = ServiceLoad::littlesLaw(store.requests, observedInFlight);
    print(context, goodput, little);
    return ExitOk;
}
