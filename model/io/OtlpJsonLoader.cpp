#include "OtlpJsonLoader.h"

#include "FileCharStream.h"
#include "JsonEventScanner.h"
#include "JsonSaxAdapter.h"
#include "LineStream.h"
#include "LoadControl.h"
#include "OtlpSpanReader.h"
#include "SpanTraceBuilder.h"

#include <QFileInfo>

#include <cctype>

namespace {

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" MiB");
}

QString spansKept(qint64 count)
{
    if (count == 0)
        return QString();
    return count == 1 ? QStringLiteral("; the span before it was kept")
                      : QStringLiteral("; the %1 spans before it were kept").arg(count);
}

// The first non-blank line and the start of the second, when the first
// line ends within `limit` bytes: enough to tell JSON Lines from one
// document. A first line longer than any record may be is one minified
// document, which streams instead.
void readFirstLines(const QString &path, qint64 limit, QByteArray *first, QByteArray *second)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return;
    QByteArray buffer;
    bool atEnd = false;
    bool firstLineEnds = false;
    while (buffer.size() < limit) {
        const QByteArray block = file.read(qMin<qint64>(qint64{256} * 1024, qMax<qint64>(1, file.size() - file.pos())));
        if (block.isEmpty()) {
            atEnd = true;
            break;
        }
        buffer += block;
        qsizetype content = 0;
        while (content < buffer.size() && std::isspace(static_cast<unsigned char>(buffer[content])))
            ++content;
        const qsizetype newline = buffer.indexOf('\n', content);
        firstLineEnds = newline >= 0;
        if (newline >= 0 && buffer.indexOf('\n', newline + 1) >= 0)
            break;
    }
    if (!firstLineEnds && !atEnd)
        return;
    if (buffer.startsWith("\xEF\xBB\xBF"))
        buffer.remove(0, 3);
    const auto lines = buffer.split('\n');
    qsizetype index = 0;
    while (index < lines.size() && lines[index].trimmed().isEmpty())
        ++index;
    if (index < lines.size())
        *first = lines[index].trimmed();
    if (index + 1 < lines.size())
        *second = lines[index + 1].trimmed();
}

// JSON Lines when the first line is a whole object on its own line, or the
// second line starts another request; a pretty-printed document starts
// with a line holding only "{" (or an object that is not closed).
bool looksLikeJsonLines(const QByteArray &first, const QByteArray &second)
{
    if (first.size() > 1 && first.startsWith('{') && first.endsWith('}'))
        return true;
    return second.startsWith("{\"resource");
}

struct LoadState
{
    qint64 metricsOrLogsLines = 0;
    qint64 requests = 0;
};

void readRecord(std::string_view text, qint64 line, bool lastLineUnterminated, OtlpSpanReader &reader,
                SpanTraceBuilder &builder, std::string &scratch, LoadState &state)
{
    reader.beginValue();
    if (JsonEventScanner::scan(text, reader, scratch) != JsonEventScanner::Result::Ok) {
        // Ask nlohmann what is wrong; it also delivers the spans after the
        // ones the fast scanner already delivered, should they differ.
        const qint64 delivered = reader.spansEmitted();
        reader.beginValue(delivered);
        JsonSaxAdapter<OtlpSpanReader> adapter(reader);
        nlohmann::json::sax_parse(text, &adapter);
        reader.endValue();
        if (adapter.failed()) {
            const bool truncated = adapter.message().contains(QLatin1String("unexpected end of input"));
            QString reason = truncated && lastLineUnterminated
                ? QStringLiteral("the file ends in the middle of this record (truncated last line)")
                : truncated
                ? QStringLiteral("record ends early at column %1 (truncated JSON): %2")
                      .arg(adapter.position())
                      .arg(adapter.message())
                : QStringLiteral("invalid JSON at column %1: %2").arg(adapter.position()).arg(adapter.message());
            builder.reject(line, reader.structureField(), reason + spansKept(reader.spansEmitted()));
            return;
        }
    } else {
        reader.endValue();
    }
    if (!reader.structureError().isEmpty()) {
        builder.reject(line, reader.structureField(), reader.structureError());
        return;
    }
    if (reader.sawTraces()) {
        ++state.requests;
    } else if (reader.sawOtherSignal()) {
        ++state.metricsOrLogsLines;
    } else {
        builder.reject(line, {},
                       QStringLiteral("not an OTLP export request: it has no resourceSpans, resourceMetrics or "
                                      "resourceLogs"));
    }
}

bool loadJsonLines(const QString &path, qint64 size, const LoadOptions &options, LoadControl *control,
                   SpanTraceBuilder &builder, LoadState &state, QString *error)
{
    qint64 currentLine = 0;
    OtlpSpanReader reader(builder, &currentLine);
    std::string scratch;
    const auto visit = [&](const LineView &line) {
        currentLine = line.number;
        std::string_view text = line.text;
        if (line.number == 1 && text.starts_with("\xEF\xBB\xBF")) {
            text.remove_prefix(3);
            builder.notice(1, QStringLiteral("the file starts with a UTF-8 byte-order mark; ignored"));
        }
        if (line.oversizeBytes > 0) {
            builder.reject(line.number, {},
                           QStringLiteral("record is %1 long, over the %2 limit for one record")
                               .arg(megabytes(line.oversizeBytes), megabytes(options.maxRecordBytes)));
        } else if (text.find_first_not_of(" \t") != std::string_view::npos) {
            readRecord(text, line.number, !line.terminated, reader, builder, scratch, state);
        }
        return !(options.strict && builder.hasRejections());
    };
    return streamLines(path, {0, size}, options.maxRecordBytes, control, visit, error);
}

bool loadDocument(const QString &path, LoadControl *control, SpanTraceBuilder &builder, LoadState &state,
                  QString *error)
{
    FileCharStream stream(path, control);
    if (!stream.open(error))
        return false;
    OtlpSpanReader reader(builder, stream.lineCounter());
    JsonSaxAdapter<OtlpSpanReader> adapter(reader);
    reader.beginValue();
    nlohmann::json::sax_parse(stream.begin(), stream.end(), &adapter);
    reader.endValue();
    if (stream.readFailed()) {
        *error = QStringLiteral("read error");
        return false;
    }
    if (stream.cancelled())
        return true;
    if (adapter.failed()) {
        // "expected end of input": a complete document with more after it.
        const QString &message = adapter.message();
        const QString reason = message.contains(QLatin1String("unexpected end of input"))
            ? QStringLiteral("the document ends early (truncated JSON): %1").arg(message)
            : message.contains(QLatin1String("expected end of input"))
            ? QStringLiteral("trailing data after the end of the JSON document (two documents in one file?); the "
                             "document before it was read, the rest was not")
            : QStringLiteral("invalid JSON: %1").arg(message);
        builder.reject(stream.line(), reader.structureField(), reason + spansKept(reader.spansEmitted()));
        return true;
    }
    if (!reader.structureError().isEmpty())
        builder.reject(0, reader.structureField(), reader.structureError());
    else if (reader.sawTraces())
        ++state.requests;
    else if (reader.sawOtherSignal())
        ++state.metricsOrLogsLines;
    else
        builder.reject(0, {},
                       QStringLiteral("not an OTLP export request: it has no resourceSpans, resourceMetrics "
                                      "or resourceLogs"));
    return true;
}

} // namespace

namespace OtlpJsonLoader {

LoadResult load(const QString &path, const LoadOptions &options, LoadControl *control)
{
    LoadResult result;
    const QFileInfo info(path);
    result.bytes = info.size();
    if (control)
        control->setTotalBytes(result.bytes);
    if (!info.exists()) {
        result.fatalError = QStringLiteral("%1: no such file").arg(path);
        return result;
    }
    if (result.bytes == 0) {
        result.fatalError = QStringLiteral("%1: the file is empty; expected OTLP/JSON trace data").arg(path);
        return result;
    }
    QByteArray first;
    QByteArray second;
    readFirstLines(path, options.maxRecordBytes, &first, &second);
    const bool jsonLines = looksLikeJsonLines(first, second);

    TraceStore &store = *result.store;
    store.sourceFiles << path;
    store.format = QStringLiteral("otlp-json");
    SpanTraceBuilder builder(store, info.fileName());
    LoadState state;
    QString error;
    const bool read = jsonLines ? loadJsonLines(path, result.bytes, options, control, builder, state, &error)
                                : loadDocument(path, control, builder, state, &error);
    if (!read) {
        result.fatalError = QStringLiteral("%1: cannot read: %2").arg(path, error);
        return result;
    }
    if (control && control->isCancelled()) {
        result.cancelled = true;
        return result;
    }
    if (control)
        control->addProcessed(qMax<qint64>(0, result.bytes - control->processedBytes()), 0);
    if (options.strict && !store.rejected.empty()) {
        result.fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
        return result;
    }
    builder.finish();
    if (state.metricsOrLogsLines > 0) {
        store.notices.push_back({info.fileName(), 0,
                                 QStringLiteral("%1 %2 metrics or logs, not traces; skipped")
                                     .arg(state.metricsOrLogsLines)
                                     .arg(state.metricsOrLogsLines == 1 ? QStringLiteral("record holds")
                                                                        : QStringLiteral("records hold"))});
    }
    if (store.spans.isEmpty() && store.rejected.empty()) {
        result.fatalError = state.metricsOrLogsLines > 0
            ? QStringLiteral("%1: no spans; the file holds only metrics or logs").arg(path)
            : QStringLiteral("%1: no spans").arg(path);
    }
    return result;
}

} // namespace OtlpJsonLoader
