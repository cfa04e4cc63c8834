#pragma once

#include "JsonDocumentFile.h"
#include "LoadResult.h"
#include "SpanRecord.h"
#include "SpanTraceBuilder.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <string>
#include <unordered_map>

class LoadControl;
class SpanSink;

// The frame every span loader that holds its file as one JSON document
// (Jaeger, any-agent, Langfuse) puts around its own reading: the file read
// (JsonDocumentFile), the source and format named in the store, one
// SpanTraceBuilder for the spans, and the same ending. The loader only
// parses and walks its DOM:
//
//     SpanDocumentLoad load(path, options, control, QStringLiteral("fmt"), fields);
//     if (!load.read())
//         return load.take();
//     if (!load.document().parse())
//         return load.cancelled();
//     ... load.builder().addSpan(...) ...
//     return load.finish();
//
// (OTLP/JSON streams its file instead: OtlpJsonLoader and OtlpSpanReader.)
class SpanDocumentLoad
{
public:
    SpanDocumentLoad(const QString &path, const LoadOptions &options, LoadControl *control, QString format,
                     SpanFieldNames fields);

    // Reads the file and names it and the format in the store; false when it
    // cannot be read (take() then holds the fatal error or the cancel).
    bool read();

    JsonDocumentFile &document() { return m_document; }
    SpanTraceBuilder &builder() { return m_builder; }

    // The load stopped because it was cancelled.
    LoadResult cancelled();
    // Reports a syntax error, resolves the spans and sets the outcome.
    LoadResult finish();
    // The result as it is (after read() returned false).
    LoadResult take() { return std::move(m_result); }

private:
    QString m_path;
    QString m_format;
    LoadResult m_result;
    JsonDocumentFile m_document;
    SpanTraceBuilder m_builder;
};

// Span formats that repeat a span's resource (or scope) in every span as a
// JSON value: each distinct value (by its serialised text) is read and
// registered with the sink once, and its index reused.
class JsonResourceCache
{
public:
    // `stringified`: attribute values are JSON text to be parsed (Langfuse's
    // metadata), as JsonAttribute::readAll takes them.
    explicit JsonResourceCache(SpanSink &sink, bool stringified = false)
        : m_sink(sink)
        , m_stringified(stringified)
    { }

    // A resource's attributes (a JSON object or OTel key/value list).
    qint32 resource(const nlohmann::json &attributes);
    // A scope {name, version, attributes}.
    qint32 scope(const nlohmann::json &scope);

private:
    SpanSink &m_sink;
    bool m_stringified;
    RecycledList<SpanAttribute> m_attributes;
    std::unordered_map<std::string, qint32> m_resources;
    std::unordered_map<std::string, qint32> m_scopes;
};
