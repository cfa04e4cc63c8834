#pragma once

#include <QDir>
#include <QFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <fcntl.h>
#include <unistd.h>

// The fuzzer's bytes as a file the loaders can open (they take paths): one
// file per process in shared memory (/dev/shm, else the temp folder),
// rewritten in place for every input and removed at exit. (A memfd reached
// through /proc/self/fd does not do: Qt resolves that link to a name that
// does not exist.)
class FuzzInput
{
public:
    FuzzInput()
        : m_path(QStringLiteral("%1/tracelane-fuzz-%2.input")
                     .arg(QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath())
                     .arg(::getpid()))
        , m_fd(::open(QFile::encodeName(m_path).constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600))
    {
        if (m_fd < 0)
            __builtin_trap();
    }
    ~FuzzInput()
    {
        ::close(m_fd);
        ::unlink(QFile::encodeName(m_path).constData());
    }
    FuzzInput(const FuzzInput &) = delete;
    FuzzInput &operator=(const FuzzInput &) = delete;

    const QString &write(const uint8_t *data, size_t size)
    {
        if (::ftruncate(m_fd, 0) != 0 || (size > 0 && ::pwrite(m_fd, data, size, 0) != ssize_t(size)))
            __builtin_trap();
        return m_path;
    }

private:
    QString m_path;
    int m_fd;
};
