#include "GzipBody.h"

#include <zlib.h>

namespace GzipBody {

Result inflate(const QByteArray &compressed, qint64 limit, QByteArray *out, QString *error)
{
    out->clear();
    z_stream stream{};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
        *error = QStringLiteral("cannot start zlib");
        return Result::Corrupt;
    }
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.constData()));
    stream.avail_in = uInt(compressed.size());
    constexpr qint64 kChunk = qint64{256} * 1024;
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        const qint64 room = qMin<qint64>(kChunk, limit + 1 - out->size());
        if (room <= 0) {
            inflateEnd(&stream);
            out->clear();
            *error = QStringLiteral("the gzip body inflates past the %1 MiB limit (a gzip bomb?)")
                         .arg(double(limit) / (1024.0 * 1024.0), 0, 'f', 0);
            return Result::TooLarge;
        }
        const qsizetype before = out->size();
        out->resize(before + room);
        stream.next_out = reinterpret_cast<Bytef *>(out->data() + before);
        stream.avail_out = uInt(room);
        status = ::inflate(&stream, Z_NO_FLUSH);
        out->resize(before + (room - qint64(stream.avail_out)));
        if (status == Z_STREAM_END)
            break;
        if (status != Z_OK || (stream.avail_in == 0 && stream.avail_out != 0)) {
            inflateEnd(&stream);
            out->clear();
            *error = status == Z_OK || status == Z_BUF_ERROR
                ? QStringLiteral("the gzip body ends early (truncated)")
                : QStringLiteral("the body is not valid gzip: %1")
                      .arg(QString::fromLatin1(stream.msg ? stream.msg : "corrupt data"));
            return Result::Corrupt;
        }
    }
    inflateEnd(&stream);
    if (out->size() > limit) {
        out->clear();
        *error = QStringLiteral("the gzip body inflates past the %1 MiB limit (a gzip bomb?)")
                     .arg(double(limit) / (1024.0 * 1024.0), 0, 'f', 0);
        return Result::TooLarge;
    }
    return Result::Ok;
}

} // namespace GzipBody
