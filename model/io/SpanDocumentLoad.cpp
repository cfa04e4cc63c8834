#include "SpanDocumentLoad.h"

#include "JsonAttribute.h"
#include "SpanSink.h"

#include <QFileInfo>

SpanDocumentLoad::SpanDocumentLoad(const QString &path, const LoadOptions &options, LoadControl *control,
                                   QString format, SpanFieldNames fields)
    : m_path(path)
    , m_format(std::move(format))
    , m_document(path, options, control)
    , m_builder(*m_result.store, QFileInfo(path).fileName(), std::move(fields))
{ }

bool SpanDocumentLoad::read()
{
    if (!m_document.read(&m_result))
        return false;
    TraceStore &store = *m_result.store;
    store.sourceFiles << m_path;
    store.format = m_format;
    return true;
}

LoadResult SpanDocumentLoad::cancelled()
{
    m_result.cancelled = true;
    return std::move(m_result);
}

LoadResult SpanDocumentLoad::finish()
{
    m_document.finish(m_builder, &m_result);
    return std::move(m_result);
}

namespace {

std::string stringOf(const nlohmann::json &object, const char *key)
{
    if (!object.contains(key) || !object[key].is_string())
        return {};
    return object[key].get<std::string>();
}

} // namespace

qint32 JsonResourceCache::resource(const nlohmann::json &attributes)
{
    std::string key = attributes.dump();
    const auto it = m_resources.find(key);
    if (it != m_resources.end())
        return it->second;
    m_attributes.clear();
    JsonAttribute::readAll(attributes, m_attributes, m_stringified);
    const qint32 index = m_sink.addResource(m_attributes);
    m_resources.emplace(std::move(key), index);
    return index;
}

qint32 JsonResourceCache::scope(const nlohmann::json &scope)
{
    std::string key = scope.dump();
    const auto it = m_scopes.find(key);
    if (it != m_scopes.end())
        return it->second;
    m_attributes.clear();
    if (scope.contains("attributes"))
        JsonAttribute::readAll(scope["attributes"], m_attributes, m_stringified);
    const qint32 index = m_sink.addScope(stringOf(scope, "name"), stringOf(scope, "version"), m_attributes);
    m_scopes.emplace(std::move(key), index);
    return index;
}
