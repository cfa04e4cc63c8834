#pragma once

#include <QByteArray>
#include <QString>

// Inflates a gzip request body (Content-Encoding: gzip) without trusting
// its size: output stops at `limit` bytes, so a small body that would
// inflate to gigabytes (a gzip bomb) costs at most `limit` of memory.
namespace GzipBody {

enum class Result { Ok, TooLarge, Corrupt };

Result inflate(const QByteArray &compressed, qint64 limit, QByteArray *out, QString *error);

} // namespace GzipBody
