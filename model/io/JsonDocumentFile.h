#pragma once

#include "JsonDom.h"
#include "LoadResult.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>

class LoadControl;
class SpanTraceBuilder;

// One JSON document of a span format small enough to hold as a DOM (a
// Jaeger trace, an agent trace export): reads it, parses it (optionally
// handing finished subtrees to a callback that may drop them), turns a
// syntax error into a rejected record with its line and column, and ends
// the load the same way for every such format.
class JsonDocumentFile
{
public:
    // Called when an object closes at `depth` (0 = the root); false drops it.
    using ObjectEnd = std::function<bool(int depth, nlohmann::json &object)>;

    JsonDocumentFile(QString path, const LoadOptions &options, LoadControl *control);

    // Reads the file; false (with result->fatalError set) when it cannot.
    bool read(LoadResult *result);
    // Parses it. On a syntax error the error is kept for finish() and the
    // root is null (what `objectEnd` consumed stays consumed); after a
    // complete document, more data is reported as trailing data and the
    // document kept. Returns false only when cancelled.
    bool parse(const ObjectEnd &objectEnd = nullptr);
    // Parses keeping integers beyond 64 bits as their decimal text (any-agent
    // writes 128-bit ids as bare JSON numbers).
    bool parseLossless();

    const nlohmann::json &root() const { return m_root; }
    const QByteArray &bytes() const { return m_bytes; }
    bool hadSyntaxError() const { return !m_syntaxError.isEmpty(); }
    // The line the document starts on (after leading blank lines), for
    // rejections of the document as a whole.
    qint64 firstLine() const;

    // Reports a syntax error, resolves the spans and sets the outcome.
    void finish(SpanTraceBuilder &builder, LoadResult *result);

private:
    bool parseWith(const JsonDom::Options &options, bool keepPartialRoot);
    qint64 lineAt(std::size_t byte) const;

    QString m_path;
    LoadOptions m_options;
    LoadControl *m_control;
    QByteArray m_bytes;
    nlohmann::json m_root;
    QString m_syntaxError;
    qint64 m_syntaxErrorLine = 0;
    qint64 m_tooDeep = 0;
};
