#include "JsonDocumentFile.h"

#include "LoadControl.h"
#include "SpanTraceBuilder.h"

#include <QFile>
#include <QFileInfo>

JsonDocumentFile::JsonDocumentFile(QString path, const LoadOptions &options, LoadControl *control)
    : m_path(std::move(path))
    , m_options(options)
    , m_control(control)
{ }

bool JsonDocumentFile::read(LoadResult *result)
{
    QFile file(m_path);
    result->bytes = file.size();
    if (m_control)
        m_control->setTotalBytes(result->bytes);
    if (!file.exists()) {
        result->fatalError = QStringLiteral("%1: no such file").arg(m_path);
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        result->fatalError = QStringLiteral("%1: cannot open: %2").arg(m_path, file.errorString());
        return false;
    }
    if (result->bytes == 0) {
        result->fatalError = QStringLiteral("%1: the file is empty").arg(m_path);
        return false;
    }
    if (m_control && m_control->isCancelled()) {
        result->cancelled = true;
        return false;
    }
    m_bytes = file.readAll();
    if (m_bytes.startsWith("\xEF\xBB\xBF"))
        m_bytes.remove(0, 3);
    return true;
}

qint64 JsonDocumentFile::lineAt(std::size_t byte) const
{
    const qsizetype end = qMin<qsizetype>(qsizetype(byte), m_bytes.size());
    return 1 + m_bytes.left(end).count('\n');
}

qint64 JsonDocumentFile::firstLine() const
{
    qsizetype pos = 0;
    while (pos < m_bytes.size()
           && (m_bytes[pos] == ' ' || m_bytes[pos] == '\t' || m_bytes[pos] == '\r' || m_bytes[pos] == '\n'))
        ++pos;
    return lineAt(std::size_t(pos));
}

bool JsonDocumentFile::parseWith(const JsonDom::Options &options, bool keepPartialRoot)
{
    using Status = JsonDom::Outcome::Status;
    const JsonDom::Outcome outcome
        = JsonDom::parse(std::string_view(m_bytes.constData(), size_t(m_bytes.size())), &m_root, options);
    m_tooDeep = outcome.tooDeep;
    if (!outcome.ok()) {
        m_syntaxErrorLine = lineAt(outcome.errorByte);
        switch (outcome.status) {
        case Status::Truncated:
            m_syntaxError = QStringLiteral("the document ends early (truncated JSON): %1").arg(outcome.message);
            break;
        case Status::TrailingData:
            // Two documents written into one file, or a stray character
            // after the end: the first document is complete and is read.
            m_syntaxError = QStringLiteral("trailing data after the end of the JSON document (two documents in "
                                           "one file?); the document before it was read, the rest was not");
            break;
        default:
            m_syntaxError = QStringLiteral("invalid JSON: %1").arg(outcome.message);
            break;
        }
        if (outcome.status != Status::TrailingData && !keepPartialRoot)
            m_root = nlohmann::json();
    }
    if (m_control)
        m_control->addProcessed(m_bytes.size(), 0);
    return !(m_control && m_control->isCancelled());
}

bool JsonDocumentFile::parse(const ObjectEnd &objectEnd)
{
    JsonDom::Options options;
    options.objectEnd = objectEnd;
    return parseWith(options, false);
}

bool JsonDocumentFile::parseLossless()
{
    JsonDom::Options options;
    options.lossless = true;
    return parseWith(options, true);
}

void JsonDocumentFile::finish(SpanTraceBuilder &builder, LoadResult *result)
{
    if (m_tooDeep > 0) {
        builder.notice(firstLine(),
                       QStringLiteral("%1 %2 nested deeper than %3 levels; read as null")
                           .arg(m_tooDeep)
                           .arg(m_tooDeep == 1 ? QStringLiteral("value is") : QStringLiteral("values are"))
                           .arg(JsonDom::kMaxDepth));
    }
    if (!m_syntaxError.isEmpty()) {
        const qint64 kept = builder.spanCount();
        QString reason = m_syntaxError;
        if (kept > 0)
            reason += kept == 1 ? QStringLiteral("; the span before it was kept")
                                : QStringLiteral("; the %1 spans before it were kept").arg(kept);
        builder.reject(m_syntaxErrorLine, {}, reason);
    }
    TraceStore &store = *result->store;
    if (m_options.strict && !store.rejected.empty()) {
        result->fatalError = QStringLiteral("strict mode: %1").arg(store.rejected.front().toString());
        return;
    }
    builder.finish();
    if (store.spans.isEmpty() && store.rejected.empty())
        result->fatalError = QStringLiteral("%1: no spans").arg(m_path);
}
