#include "ClassCommandLoad.h"

#include "CliContext.h"

#include "analysis/classes/ClassDimension.h"
#include "store/RequestTable.h"

namespace {

// The attributes that the dimensions --by and --where name can read: their
// own names, and whatever a derived dimension reads (the cached-prefix one
// takes `cached_prefix` or the first attribute whose name has "cache" in it;
// the workflow-type one `workflow_type`), so a dimension resolves to the same
// attribute as in the whole trace.
AttributeProjection namedDimensions(const ClassOptions::Values &options)
{
    AttributeProjection projection = AttributeProjection::none();
    for (const QString &key : options.by)
        projection.names << key.trimmed();
    for (const auto &condition : options.where.conditions())
        projection.names << condition.dimension.trimmed();
    projection.names << QStringLiteral("workflow_type");
    projection.nameContains << QStringLiteral("cache");
    return projection;
}

// Every named dimension is in `table`: otherwise the command's message lists
// the dimensions the trace has, which needs all of its attributes.
bool resolvesNamedDimensions(const RequestTable &table, const ClassOptions::Values &options)
{
    if (options.by.isEmpty() || options.by.size() > 2)
        return false;
    ClassDimension dimension;
    for (const QString &key : options.by) {
        if (!classDimensionFromKey(table, key, &dimension))
            return false;
    }
    for (const auto &condition : options.where.conditions()) {
        if (!classDimensionFromKey(table, condition.dimension, &dimension))
            return false;
    }
    return true;
}

} // namespace

int prepareClassCommand(const CliContext &context, const QString &command, ClassCommandInput *input,
                        bool onlyNamedDimensions)
{
    if (!expectOneFile(context, command))
        return ExitUsage;
    if (!ClassOptions::read(context, &input->options))
        return ExitUsage;
    const QString path = context.arguments.first();
    const AttributeProjection attributes
        = onlyNamedDimensions ? namedDimensions(input->options) : AttributeProjection{};
    if (!loadForCli(context, path, &input->load, attributes))
        return ExitFailure;
    // A dimension not found is a usage error that names the trace's
    // dimensions: load every attribute for it (rare; costs a second read).
    if (!attributes.all && !context.allAttributes
        && !resolvesNamedDimensions(input->load.store->requests, input->options)
        && !loadForCli(context, path, &input->load))
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
