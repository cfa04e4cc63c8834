#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

// The fuzzer's bytes as a file the loaders can open (they take paths): an
// in-memory file (memfd), reopened through /proc/self/fd, so no disk is
// touched between executions.
class FuzzInput
{
public:
    FuzzInput()
        : m_fd(memfd_create("tracelane-fuzz-input", 0))
        , m_path(QStringLiteral("/proc/self/fd/%1").arg(m_fd))
    {
    }

    const QString &write(const uint8_t *data, size_t size)
    {
        if (ftruncate(m_fd, 0) != 0 || (size > 0 && pwrite(m_fd, data, size, 0) != ssize_t(size)))
            __builtin_trap();
        return m_path;
    }

private:
    int m_fd;
    QString m_path;
};
