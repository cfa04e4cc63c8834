#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

// An incremental HTTP/1.1 request parser for the OTLP receiver: request
// line, headers, then a body of Content-Length bytes or chunked. Limits are
// enforced before the bytes are kept: a Content-Length over the body limit
// fails at once (413) without reading the body, headers past their limit
// fail with 431, a chunked body stops at the limit. Bytes after a complete
// request stay in the caller's buffer (pipelining, keep-alive).
class HttpRequestReader
{
public:
    enum class State { Incomplete, Complete, Failed };

    explicit HttpRequestReader(qint64 maxBodyBytes, qint64 maxHeaderBytes = qint64{64} * 1024)
        : m_maxBody(maxBodyBytes)
        , m_maxHeader(maxHeaderBytes)
    { }

    // Consumes what it can from `buffer`.
    State feed(QByteArray &buffer);
    void reset();

    // After the headers are read (and before the body is complete).
    bool headersDone() const { return m_headersDone; }
    bool expectsContinue() const;

    const QByteArray &method() const { return m_method; }
    const QByteArray &path() const { return m_path; }
    QByteArray header(const QByteArray &lowerCaseName) const;
    const QByteArray &body() const { return m_body; }
    bool keepAlive() const;
    // Content-Length as declared (0 when chunked or absent).
    qint64 declaredLength() const { return m_contentLength; }

    int failureStatus() const { return m_failureStatus; }
    const QString &failureMessage() const { return m_failureMessage; }

private:
    State fail(int status, const QString &message);
    State parseHeaders(QByteArray &buffer);
    State readChunked(QByteArray &buffer);

    qint64 m_maxBody;
    qint64 m_maxHeader;
    bool m_headersDone = false;
    bool m_chunked = false;
    qint64 m_contentLength = 0;
    qint64 m_chunkRemaining = -1; // -1: expecting a chunk-size line
    bool m_inTrailers = false;
    QByteArray m_method;
    QByteArray m_path;
    QByteArray m_version;
    QList<QPair<QByteArray, QByteArray>> m_headers;
    QByteArray m_body;
    int m_failureStatus = 0;
    QString m_failureMessage;
};
