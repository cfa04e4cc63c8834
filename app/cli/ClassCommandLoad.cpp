#include "ClassCommandLoad.h"

#include "CliContext.h"
#include "report/ReportText.h"

int prepareClassCommand(const CliContext &context, const QString &command, ClassCommandInput *input)
{
    if (context.arguments.size() != 1) {
        context.err << QStringLiteral("tracelane-cli %1: expected exactly one FILE\n\n").arg(command)
                    << context.parser.helpText();
        return ExitUsage;
    }
    if (!ClassOptions::read(context, &input->options))
        return ExitUsage;
    const QString path = context.arguments.first();
    if (!loadForCli(context, path, &input->load))
        return ExitFailure;
    const auto &store = *input->load.store;
    if (store.requests.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli: %1: no valid records; %2 rejected\n")
                           .arg(path)
                           .arg(store.rejected.size());
        context.err << ReportText::rejectedSummary(store.rejected) << '\n';
        return ExitFailure;
    }
    QString error;
    input->slice = input->options.where.apply(store.requests, input->options.bands, &error);
    if (!error.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli: --where: %1\n").arg(error);
        return ExitUsage;
    }
    input->sliceText = input->options.where.describe();
    return -1;
}
