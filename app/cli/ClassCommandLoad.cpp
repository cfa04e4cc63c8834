#include "ClassCommandLoad.h"

#include "CliContext.h"

#include "analysis/classes/ClassDimension.h"
#include "store/RequestTable.h"

namespace {

// The attributes that the dimensions --by and --where name can read: their
// own names and, when a name has "cache" in it, every attribute whose name
// has (the cached-prefix dimension reads `cached_prefix` or the first of
// them, and it decides which attribute is that dimension rather than one of
// its own), so a dimension resolves to the same attribute as in the whole
// trace. The workflow-type dimension reads `workflow_type`, its own name.
AttributeProjection namedDimensions(const ClassOptions::Values &options)
{
    AttributeProjection projection = AttributeProjection::none();
    for (const QString &key : options.by)
        projection.names << key.trimmed();
    for (const auto &condition : options.where.conditions())
        projection.names << condition.dimension.trimmed();
    const QString cache = QStringLiteral("cache");
    for (const QString &name : std::as_const(projection.names)) {
        if (name.contains(cache, Qt::CaseInsensitive)) {
            projection.nameContains << cache;
            break;
        }
    }
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
