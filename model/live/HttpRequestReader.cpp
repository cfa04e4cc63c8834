#include "HttpRequestReader.h"

namespace {

QString mebibytes(qint64 bytes)
{
    return QStringLiteral("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

} // namespace

void HttpRequestReader::reset()
{
    m_headersDone = false;
    m_chunked = false;
    m_contentLength = 0;
    m_chunkRemaining = -1;
    m_inTrailers = false;
    m_method.clear();
    m_path.clear();
    m_version.clear();
    m_headers.clear();
    m_body.clear();
    m_failureStatus = 0;
    m_failureMessage.clear();
}

HttpRequestReader::State HttpRequestReader::fail(int status, const QString &message)
{
    m_failureStatus = status;
    m_failureMessage = message;
    return State::Failed;
}

QByteArray HttpRequestReader::header(const QByteArray &lowerCaseName) const
{
    for (const auto &[name, value] : m_headers) {
        if (name == lowerCaseName)
            return value;
    }
    return {};
}

bool HttpRequestReader::expectsContinue() const
{
    return header("expect").trimmed().toLower() == "100-continue";
}

bool HttpRequestReader::keepAlive() const
{
    const QByteArray connection = header("connection").trimmed().toLower();
    if (m_version == "HTTP/1.0")
        return connection == "keep-alive";
    return connection != "close";
}

HttpRequestReader::State HttpRequestReader::parseHeaders(QByteArray &buffer)
{
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (buffer.size() > m_maxHeader)
            return fail(431, QStringLiteral("the request headers are longer than %1 KiB").arg(m_maxHeader / 1024));
        return State::Incomplete;
    }
    if (end > m_maxHeader)
        return fail(431, QStringLiteral("the request headers are longer than %1 KiB").arg(m_maxHeader / 1024));
    const QList<QByteArray> lines = buffer.left(end).split('\n');
    buffer.remove(0, end + 4);
    const QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1."))
        return fail(400, QStringLiteral("not an HTTP/1.x request line"));
    m_method = requestLine[0];
    m_path = requestLine[1];
    m_version = requestLine[2];
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return fail(400, QStringLiteral("a header line without a name"));
        m_headers.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    m_headersDone = true;
    const QByteArray transfer = header("transfer-encoding").trimmed().toLower();
    if (!transfer.isEmpty()) {
        if (transfer != "chunked")
            return fail(
                501,
                QStringLiteral("Transfer-Encoding '%1' is not supported").arg(QString::fromLatin1(transfer.left(40))));
        m_chunked = true;
        return State::Incomplete;
    }
    const QByteArray length = header("content-length");
    if (!length.isEmpty()) {
        bool ok = false;
        m_contentLength = length.trimmed().toLongLong(&ok);
        if (!ok || m_contentLength < 0)
            return fail(400,
                        QStringLiteral("Content-Length '%1' is not a number of bytes")
                            .arg(QString::fromLatin1(length.left(40))));
        if (m_contentLength > m_maxBody)
            return fail(413,
                        QStringLiteral("the body is %1, over the %2 limit")
                            .arg(mebibytes(m_contentLength), mebibytes(m_maxBody)));
    }
    return State::Incomplete;
}

HttpRequestReader::State HttpRequestReader::readChunked(QByteArray &buffer)
{
    while (true) {
        if (m_inTrailers) {
            // Trailers end with an empty line; their content is ignored.
            const qsizetype end = buffer.indexOf("\r\n");
            if (end < 0)
                return buffer.size() > m_maxHeader ? fail(431, QStringLiteral("chunked trailers too long"))
                                                   : State::Incomplete;
            buffer.remove(0, end + 2);
            if (end == 0)
                return State::Complete;
            continue;
        }
        if (m_chunkRemaining < 0) {
            const qsizetype end = buffer.indexOf("\r\n");
            if (end < 0)
                return buffer.size() > 1024 ? fail(400, QStringLiteral("a chunk-size line longer than 1 KiB"))
                                            : State::Incomplete;
            QByteArray size = buffer.left(end);
            if (const qsizetype semicolon = size.indexOf(';'); semicolon >= 0)
                size.truncate(semicolon);
            bool ok = false;
            const qint64 length = size.trimmed().toLongLong(&ok, 16);
            if (!ok || length < 0)
                return fail(400, QStringLiteral("a chunk size that is not hexadecimal"));
            buffer.remove(0, end + 2);
            if (length == 0) {
                m_inTrailers = true;
                continue;
            }
            if (m_body.size() + length > m_maxBody)
                return fail(413, QStringLiteral("the chunked body grows past the %1 limit").arg(mebibytes(m_maxBody)));
            m_chunkRemaining = length;
        }
        // Chunk data, then its CRLF.
        if (buffer.size() < m_chunkRemaining + 2)
            return State::Incomplete;
        m_body.append(buffer.constData(), m_chunkRemaining);
        if (buffer.mid(m_chunkRemaining, 2) != "\r\n")
            return fail(400, QStringLiteral("a chunk not followed by CRLF"));
        buffer.remove(0, m_chunkRemaining + 2);
        m_chunkRemaining = -1;
    }
}

HttpRequestReader::State HttpRequestReader::feed(QByteArray &buffer)
{
    if (!m_headersDone) {
        const State state = parseHeaders(buffer);
        if (state == State::Failed || !m_headersDone)
            return state;
    }
    if (m_chunked)
        return readChunked(buffer);
    if (buffer.size() < m_contentLength)
        return State::Incomplete;
    m_body = buffer.left(m_contentLength);
    buffer.remove(0, m_contentLength);
    return State::Complete;
}
