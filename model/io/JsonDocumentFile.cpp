#include "JsonDocumentFile.h"

#include "LoadControl.h"
#include "LosslessJson.h"
#include "SpanTraceBuilder.h"

#include <QFile>
#include <QFileInfo>

JsonDocumentFile::JsonDocumentFile(QString path, const LoadOptions &options, LoadControl *control)
    : m_path(std::move(path)), m_options(options), m_control(control)
{
}

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

void JsonDocumentFile::syntaxError(std::size_t byte, const QString &message)
{
    const qsizetype end = qMin<qsizetype>(qsizetype(byte), m_bytes.size());
    m_syntaxErrorLine = 1 + m_bytes.left(end).count('\n');
    QString what = message;
    const auto at = what.indexOf(QLatin1String(": "), what.indexOf(QLatin1String("parse error")));
    if (at >= 0)
        what = what.mid(at + 2);
    m_syntaxError = what.contains(QLatin1String("end of input"))
        ? QStringLiteral("the document ends early (truncated JSON): %1").arg(what)
        : QStringLiteral("invalid JSON: %1").arg(what);
}

bool JsonDocumentFile::parse(const Callback &callback)
{
    try {
        m_root = nlohmann::json::parse(m_bytes.cbegin(), m_bytes.cend(), callback);
    } catch (const nlohmann::json::parse_error &error) {
        syntaxError(error.byte, QString::fromUtf8(error.what()));
    } catch (const nlohmann::json::exception &error) {
        m_syntaxError = QString::fromUtf8(error.what());
    }
    if (m_control)
        m_control->addProcessed(m_bytes.size(), 0);
    return !(m_control && m_control->isCancelled());
}

bool JsonDocumentFile::parseLossless()
{
    std::size_t errorByte = 0;
    QString error;
    if (!LosslessJson::parse(std::string_view(m_bytes.constData(), size_t(m_bytes.size())), &m_root, &error,
                             &errorByte)) {
        syntaxError(errorByte, error);
    }
    if (m_control)
        m_control->addProcessed(m_bytes.size(), 0);
    return !(m_control && m_control->isCancelled());
}

void JsonDocumentFile::finish(SpanTraceBuilder &builder, LoadResult *result)
{
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
