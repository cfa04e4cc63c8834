#include "SliceCommand.h"

#include "ClassCommandLoad.h"
#include "CliContext.h"
#include "ClickHouseAnalyses.h"

#include "analysis/classes/ClassTable.h"
#include "analysis/stats/ColumnCache.h"
#include "report/ClassTableJson.h"
#include "report/ClassTableText.h"
#include "report/ReportText.h"

#include <nlohmann/json.hpp>

int runSlice(const CliContext &context)
{
    if (context.arguments.size() == 1 && computesOnServer(context.arguments.first()))
        return runSliceOnClickHouse(context);
    ClassCommandInput input;
    if (const int code = prepareClassCommand(context, QStringLiteral("slice"), &input, true); code >= 0)
        return code;
    const auto &store = *input.load.store;
    const auto &options = input.options;
    QStringList known;
    for (const auto &dimension : classDimensions(store.requests))
        known << dimension.key;
    if (options.by.isEmpty() || options.by.size() > 2) {
        context.err << QStringLiteral("tracelane-cli slice: --by takes one or two dimensions; this trace has: %1\n")
                           .arg(known.join(QStringLiteral(", ")));
        return ExitUsage;
    }
    std::vector<ClassColumn> columns;
    for (const QString &key : options.by) {
        ClassDimension dimension;
        if (!classDimensionFromKey(store.requests, key, &dimension)) {
            context.err << QStringLiteral("tracelane-cli slice: no dimension '%1'; this trace has: %2\n")
                               .arg(key, known.join(QStringLiteral(", ")));
            return ExitUsage;
        }
        columns.push_back(ClassColumn::build(store.requests, dimension, options.bands));
    }
    ColumnCache cache(input.load.store);
    ClassTableSpec spec;
    spec.metric = options.metric;
    spec.boundary = context.boundary;
    spec.exceedanceQ = options.percentile;
    spec.withCdf = false;
    const ClassTable table = computeClassTable(*cache.metric(spec.metric, spec.boundary), columns, input.slice, spec);
    if (context.json) {
        nlohmann::json document = ClassTableJson::table(table, input.sliceText);
        document["file"] = context.arguments.first().toStdString();
        document["rejected"] = store.rejected.size();
        context.out << QString::fromStdString(document.dump(2)) << '\n';
    } else {
        context.out << ClassTableText::table(table, input.sliceText) << '\n';
        if (!store.rejected.empty())
            context.out << ReportText::rejectedSummary(store.rejected, 5) << '\n';
    }
    return table.error.isEmpty() ? ExitOk : ExitFailure;
}
