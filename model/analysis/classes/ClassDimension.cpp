#include "ClassDimension.h"

#include "store/RequestTable.h"

namespace {

const QString kWorkflowTypeAttribute = QStringLiteral("workflow_type");

} // namespace

qsizetype cachedPrefixAttribute(const RequestTable &table)
{
    const qsizetype exact = table.attributeIndex(QStringLiteral("cached_prefix"));
    if (exact >= 0)
        return exact;
    const auto &attributes = table.attributes();
    for (size_t i = 0; i < attributes.size(); ++i) {
        if (attributes[i].name().contains(QStringLiteral("cache"), Qt::CaseInsensitive))
            return static_cast<qsizetype>(i);
    }
    return -1;
}

std::vector<ClassDimension> classDimensions(const RequestTable &table)
{
    std::vector<ClassDimension> dimensions;
    const qsizetype cacheIndex = cachedPrefixAttribute(table);
    const auto &attributes = table.attributes();
    for (size_t i = 0; i < attributes.size(); ++i) {
        const QString &name = attributes[i].name();
        if (static_cast<qsizetype>(i) == cacheIndex || name == kWorkflowTypeAttribute)
            continue;
        dimensions.push_back({ClassDimension::Kind::Attribute, name, name, name});
    }
    dimensions.push_back(
        {ClassDimension::Kind::PromptBand, QStringLiteral("prompt_band"), QStringLiteral("Prompt band"), {}});
    dimensions.push_back(
        {ClassDimension::Kind::OutputBand, QStringLiteral("output_band"), QStringLiteral("Output band"), {}});
    if (cacheIndex >= 0) {
        dimensions.push_back({ClassDimension::Kind::CachedPrefix, QStringLiteral("cached_prefix"),
                              QStringLiteral("Cached prefix"), attributes[size_t(cacheIndex)].name()});
    }
    if (table.attribute(kWorkflowTypeAttribute)) {
        dimensions.push_back({ClassDimension::Kind::WorkflowType, kWorkflowTypeAttribute,
                              QStringLiteral("Workflow type"), kWorkflowTypeAttribute});
    }
    return dimensions;
}

bool classDimensionFromKey(const RequestTable &table, const QString &key, ClassDimension *dimension)
{
    const QString wanted = key.trimmed();
    for (const auto &candidate : classDimensions(table)) {
        if (candidate.key.compare(wanted, Qt::CaseInsensitive) == 0) {
            *dimension = candidate;
            return true;
        }
    }
    // The raw name of the attribute a derived dimension reads also works.
    for (const auto &candidate : classDimensions(table)) {
        if (!candidate.source.isEmpty() && candidate.source.compare(wanted, Qt::CaseInsensitive) == 0) {
            *dimension = candidate;
            return true;
        }
    }
    return false;
}
