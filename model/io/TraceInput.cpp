#include "TraceInput.h"

#include "LoadControl.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr qint64 kBlockBytes = qint64{1024} * 1024;
constexpr int kPollMs = 100;

QString byteSize(qint64 bytes)
{
    if (bytes < 1000)
        return QStringLiteral("%1 bytes").arg(bytes);
    if (bytes < qint64{1000} * 1000)
        return QString::number(double(bytes) / 1e3, 'f', 1) + QStringLiteral(" kB");
    return QString::number(double(bytes) / 1e6, 'f', 1) + QStringLiteral(" MB");
}

QString systemError(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

// What the first bytes of a regular file say about its compression.
enum class Packing { None, Gzip, Zstd, Bzip2, Xz };

Packing packingOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Packing::None;
    const QByteArray head = file.read(6);
    if (head.startsWith("\x1F\x8B"))
        return Packing::Gzip;
    if (head.startsWith("\x28\xB5\x2F\xFD"))
        return Packing::Zstd;
    if (head.startsWith("BZh"))
        return Packing::Bzip2;
    if (head.startsWith("\xFD"
                        "7zXZ"))
        return Packing::Xz;
    return Packing::None;
}

} // namespace

TraceInput::TraceInput() = default;
TraceInput::~TraceInput() = default;

QString TraceInput::tempFile(const QString &name)
{
    if (!m_dir)
        m_dir = std::make_unique<QTemporaryDir>();
    // Each stage gets its own subfolder so the copy keeps the plain name.
    const QString folder = m_dir->filePath(QString::number(++m_copies));
    QDir().mkpath(folder);
    return folder + QLatin1Char('/') + name;
}

bool TraceInput::open(const QString &path, LoadControl *control, QString *error)
{
    m_path = path;
    m_loadPath = path;
    if (isStandardInput(path)) {
        if (!copyStream(STDIN_FILENO, QStringLiteral("stdin"), control, error))
            return false;
        m_howRead = QStringLiteral("read from standard input");
    } else {
        struct stat info
        {
        };
        if (::stat(QFile::encodeName(path).constData(), &info) != 0) {
            *error = errno == ENOENT ? QStringLiteral("no such file")
                                     : QStringLiteral("cannot open: %1").arg(systemError(errno));
            return false;
        }
        if (S_ISDIR(info.st_mode)) {
            *error = QStringLiteral("is a folder, not a trace file");
            return false;
        }
        if (!S_ISREG(info.st_mode)) {
            // A named pipe (or a device): open without waiting for a writer,
            // then wait in polls that watch the cancel flag.
            const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0) {
                *error = QStringLiteral("cannot open: %1").arg(systemError(errno));
                return false;
            }
            const bool copied = copyStream(fd, QFileInfo(path).fileName(), control, error);
            ::close(fd);
            if (!copied)
                return false;
            m_howRead = QStringLiteral("read as a stream from a pipe");
        }
    }
    switch (packingOf(m_loadPath)) {
    case Packing::None:
        return true;
    case Packing::Gzip: {
        QString name = QFileInfo(path).fileName();
        if (name.endsWith(QLatin1String(".gz")))
            name.chop(3);
        else if (isStandardInput(path))
            name = QStringLiteral("stdin");
        return decompress(m_loadPath, name.isEmpty() ? QStringLiteral("trace") : name, control, error);
    }
    case Packing::Zstd:
        *error = QStringLiteral("is zstd-compressed, which this build does not read; decompress it first (unzstd)");
        return false;
    case Packing::Bzip2:
        *error = QStringLiteral("is bzip2-compressed, which this build does not read; decompress it first (bunzip2)");
        return false;
    case Packing::Xz:
        *error = QStringLiteral("is xz-compressed, which this build does not read; decompress it first (unxz)");
        return false;
    }
    return true;
}

bool TraceInput::copyStream(int fd, const QString &name, LoadControl *control, QString *error)
{
    const QString target = tempFile(name);
    QFile out(target);
    if (!m_dir->isValid() || !out.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot make a temporary copy of the stream: %1").arg(out.errorString());
        return false;
    }
    std::vector<char> block(static_cast<size_t>(kBlockBytes));
    for (;;) {
        if (control && control->isCancelled()) {
            m_cancelled = true;
            return false;
        }
        pollfd watch{fd, POLLIN, 0};
        const int ready = ::poll(&watch, 1, kPollMs);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            *error = QStringLiteral("cannot read the stream: %1").arg(systemError(errno));
            return false;
        }
        if (ready == 0)
            continue; // nothing yet (a pipe without a writer waits here)
        const ssize_t got = ::read(fd, block.data(), block.size());
        if (got < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            *error = QStringLiteral("cannot read the stream: %1").arg(systemError(errno));
            return false;
        }
        if (got == 0)
            break; // the writer closed its end
        if (out.write(block.data(), got) != got) {
            *error = QStringLiteral("cannot write the temporary copy of the stream: %1").arg(out.errorString());
            return false;
        }
    }
    out.close();
    m_loadPath = target;
    return true;
}

bool TraceInput::decompress(const QString &from, const QString &name, LoadControl *control, QString *error)
{
    const qint64 packed = QFileInfo(from).size();
    gzFile in = gzopen(QFile::encodeName(from).constData(), "rb");
    if (!in) {
        *error = QStringLiteral("cannot open the gzip file: %1").arg(systemError(errno));
        return false;
    }
    const QString target = tempFile(name);
    QFile out(target);
    if (!m_dir->isValid() || !out.open(QIODevice::WriteOnly)) {
        gzclose(in);
        *error = QStringLiteral("cannot make a temporary file to decompress into: %1").arg(out.errorString());
        return false;
    }
    if (control)
        control->setTotalBytes(packed);
    std::vector<char> block(static_cast<size_t>(kBlockBytes));
    qint64 unpacked = 0;
    qint64 reported = 0;
    QString problem;
    for (;;) {
        if (control && control->isCancelled()) {
            gzclose(in);
            m_cancelled = true;
            return false;
        }
        const int got = gzread(in, block.data(), unsigned(block.size()));
        if (got < 0) {
            int code = Z_OK;
            problem = QString::fromUtf8(gzerror(in, &code));
            break;
        }
        if (got == 0)
            break;
        if (out.write(block.data(), got) != got) {
            gzclose(in);
            *error = QStringLiteral("cannot write the decompressed copy: %1").arg(out.errorString());
            return false;
        }
        unpacked += got;
        if (control) {
            const qint64 at = qint64(gzoffset(in));
            control->addProcessed(at - reported, 0);
            reported = at;
        }
    }
    // A gzip file cut short reads up to the cut; zlib says so only here.
    int code = Z_OK;
    const char *message = gzerror(in, &code);
    if (problem.isEmpty() && code != Z_OK)
        problem = QString::fromUtf8(message);
    gzclose(in);
    out.close();
    if (unpacked == 0 && !problem.isEmpty()) {
        *error = QStringLiteral("is not a readable gzip file: %1").arg(problem);
        return false;
    }
    m_loadPath = target;
    m_howRead = QStringLiteral("decompressed from gzip (%1 to %2)").arg(byteSize(packed), byteSize(unpacked));
    if (!problem.isEmpty()) {
        m_howRead += QStringLiteral("; the gzip data is damaged or cut short after %1 (%2): the records up to "
                                    "there were read")
                         .arg(byteSize(unpacked), problem);
    }
    if (control)
        control->resetProgress();
    return true;
}

QString TraceInput::toUserPath(const QString &text) const
{
    if (!isCopy())
        return text;
    QString result = text;
    return result.replace(m_loadPath, isStandardInput(m_path) ? QStringLiteral("(standard input)") : m_path);
}
