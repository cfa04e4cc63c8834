#include "FileCharStream.h"

#include "LoadControl.h"

namespace {

constexpr qint64 kBlockBytes = qint64{1024} * 1024;

} // namespace

FileCharStream::FileCharStream(const QString &path, LoadControl *control)
    : m_file(path)
    , m_control(control)
{ }

bool FileCharStream::open(QString *error)
{
    if (!m_file.open(QIODevice::ReadOnly)) {
        *error = m_file.errorString();
        return false;
    }
    // A small file needs no 1 MiB block (many small files are loaded in
    // tests and fuzzing, where zeroing one each time dominated).
    m_block.resize(size_t(qBound<qint64>(4096, m_file.size() + 1, kBlockBytes)));
    return true;
}

bool FileCharStream::fill()
{
    if (m_position < m_filled)
        return true;
    if (m_eof)
        return false;
    if (m_control && m_control->isCancelled()) {
        m_cancelled = true;
        m_eof = true;
        return false;
    }
    const qint64 got = m_file.read(m_block.data(), qint64(m_block.size()));
    if (got <= 0) {
        m_readFailed = got < 0;
        m_eof = true;
        return false;
    }
    m_blockStart += qint64(m_filled);
    m_position = 0;
    m_filled = size_t(got);
    if (m_control)
        m_control->addProcessed(got, 0);
    return true;
}
