#include "ExceedCommand.h"

#include "ClassCommandLoad.h"
#include "CliContext.h"

#include "analysis/stats/ColumnCache.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "report/ExceedanceJson.h"
#include "report/ExceedanceText.h"
#include "report/ReportText.h"

#include <nlohmann/json.hpp>

int runExceed(const CliContext &context)
{
    ClassCommandInput input;
    if (const int code = prepareClassCommand(context, QStringLiteral("exceed"), &input); code >= 0)
        return code;
    const auto &store = *input.load.store;
    const auto &options = input.options;
    ExceedanceSpec spec;
    spec.metric = options.metric;
    spec.boundary = context.boundary;
    spec.q = options.percentile;
    spec.order = options.order;
    ColumnCache cache(input.load.store);
    const auto analysis = ExceedanceAnalysis::compute(cache, input.slice, spec);
    if (context.json) {
        nlohmann::json document = ExceedanceJson::analysis(analysis, store.requests, input.sliceText,
                                                           options.members, options.member);
        document["file"] = context.arguments.first().toStdString();
        document["rejected"] = store.rejected.size();
        context.out << QString::fromStdString(document.dump(2)) << '\n';
        return ExitOk;
    }
    ExceedanceText::Options text;
    text.slice = input.sliceText;
    text.listedMembers = options.members;
    text.member = options.member;
    context.out << ExceedanceText::analysis(analysis, store.requests, text) << '\n';
    if (!store.rejected.empty())
        context.out << ReportText::rejectedSummary(store.rejected, 5) << '\n';
    return ExitOk;
}
