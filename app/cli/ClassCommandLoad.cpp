#include "ClassCommandLoad.h"

#include "CliContext.h"

int prepareClassCommand(const CliContext &context, const QString &command, ClassCommandInput *input)
{
    if (!expectOneFile(context, command))
        return ExitUsage;
    if (!ClassOptions::read(context, &input->options))
        return ExitUsage;
    const QString path = context.arguments.first();
    if (!loadForCli(context, path, &input->load))
        return ExitFailure;
    const auto &store = *input->load.store;
    if (!requireRequests(context, path, store))
        return ExitFailure;
    QString error;
    input->slice = input->options.where.apply(store.requests, input->options.bands, &error);
    if (!error.isEmpty()) {
        context.err << QStringLiteral("tracelane-cli: --where: %1\n").arg(error);
        return ExitUsage;
    }
    input->sliceText = input->options.where.describe();
    return -1;
}
