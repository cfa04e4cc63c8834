#pragma once

#include "LoadResult.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

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
    using Callback = nlohmann::json::parser_callback_t;

    JsonDocumentFile(QString path, const LoadOptions &options, LoadControl *control);

    // Reads the file; false (with result->fatalError set) when it cannot.
    bool read(LoadResult *result);
    // Parses it. On a syntax error the error is kept for finish() and the
    // root is whatever parsed; returns false only when cancelled.
    bool parse(const Callback &callback = nullptr);
    // Parses keeping integers beyond 64 bits as their decimal text (any-agent
    // writes 128-bit ids as bare JSON numbers).
    bool parseLossless();

    const nlohmann::json &root() const { return m_root; }
    const QByteArray &bytes() const { return m_bytes; }
    bool hadSyntaxError() const { return !m_syntaxError.isEmpty(); }

    // Reports a syntax error, resolves the spans and sets the outcome.
    void finish(SpanTraceBuilder &builder, LoadResult *result);

private:
    void syntaxError(std::size_t byte, const QString &message);

    QString m_path;
    LoadOptions m_options;
    LoadControl *m_control;
    QByteArray m_bytes;
    nlohmann::json m_root;
    QString m_syntaxError;
    qint64 m_syntaxErrorLine = 0;
};
