#include "TraceFingerprint.h"

#include <QCryptographicHash>
#include <QFile>

TraceFingerprint TraceFingerprint::of(const QString &path, const std::atomic<bool> *cancelled)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray chunk(1 << 20, Qt::Uninitialized);
    qint64 bytes = 0;
    for (;;) {
        if (cancelled && cancelled->load(std::memory_order_relaxed))
            return {};
        const qint64 read = file.read(chunk.data(), chunk.size());
        if (read < 0)
            return {};
        if (read == 0)
            break;
        hash.addData(QByteArrayView(chunk.constData(), read));
        bytes += read;
    }
    return {bytes, QString::fromLatin1(hash.result().toHex())};
}
