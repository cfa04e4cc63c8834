#include "LineStream.h"

#include "LoadControl.h"
#include "store/ColumnMemory.h"

#include <QFile>

#include <cstring>

namespace {

constexpr qint64 kBlockBytes = qint64{4} * 1024 * 1024;

} // namespace

std::vector<ByteRange> splitFileIntoLineRanges(const QString &path, qint64 size, int count)
{
    std::vector<ByteRange> ranges;
    if (size <= 0)
        return ranges;
    count = qMax(1, count);
    if (count == 1)
        return {{0, size}};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {{0, size}};
    qint64 begin = 0;
    const qint64 target = size / count + 1;
    std::vector<char> window(size_t{64} * 1024);
    while (begin < size) {
        qint64 end = qMin(size, begin + target);
        // Move the cut forward to just after the next newline.
        while (end < size) {
            file.seek(end);
            const qint64 got = file.read(window.data(), qint64(window.size()));
            if (got <= 0) {
                end = size;
                break;
            }
            const void *found = memchr(window.data(), '\n', size_t(got));
            if (found) {
                end += qint64(static_cast<const char *>(found) - window.data()) + 1;
                break;
            }
            end += got;
        }
        ranges.push_back({begin, qMin(end, size)});
        begin = qMin(end, size);
    }
    return ranges;
}

bool streamLines(const QString &path, ByteRange range, qint64 maxLineBytes, LoadControl *control,
                 const std::function<bool(const LineView &)> &visit, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(range.begin)) {
        *error = file.errorString();
        return false;
    }
    // A carried partial line + a new block. Room for two blocks up front: a
    // carried tail then never regrows (and copies) the buffer, and at 8 MiB
    // it is a huge-page column (see ColumnMemory) rather than 2048 faults.
    ColumnVector<char> buffer;
    buffer.reserve(size_t(2 * kBlockBytes));
    size_t carried = 0;  // bytes of an unfinished line at buffer start
    qint64 oversize = 0; // > 0 while skipping an over-long line
    qint64 lineNumber = 0;
    qint64 remaining = range.end - range.begin;
    qint64 linesSinceReport = 0;
    while (remaining > 0) {
        if (control && control->isCancelled())
            return true;
        const qint64 want = qMin(kBlockBytes, remaining);
        buffer.resize(carried + size_t(want));
        const qint64 got = file.read(buffer.data() + carried, want);
        if (got <= 0) {
            *error = got < 0 ? file.errorString() : QStringLiteral("file shrank while it was being read");
            return false;
        }
        remaining -= got;
        const size_t filled = carried + size_t(got);
        const bool atEnd = remaining == 0;
        size_t pos = 0;
        while (pos < filled) {
            const void *found = memchr(buffer.data() + pos, '\n', filled - pos);
            if (!found && !atEnd)
                break;
            const size_t end = found ? size_t(static_cast<const char *>(found) - buffer.data()) : filled;
            LineView line;
            line.number = ++lineNumber;
            line.terminated = found != nullptr;
            if (oversize > 0) {
                line.oversizeBytes = oversize + qint64(end - pos);
                oversize = 0;
            } else {
                line.text = std::string_view(buffer.data() + pos, end - pos);
                if (qint64(line.text.size()) > maxLineBytes) {
                    line.oversizeBytes = qint64(line.text.size());
                    line.text = {};
                }
            }
            if (!line.text.empty() && line.text.back() == '\r') {
                line.text.remove_suffix(1);
                line.crlf = true;
            }
            if (!visit(line))
                return true;
            pos = end + 1;
            if (++linesSinceReport == 4096 && control) {
                control->addProcessed(0, linesSinceReport);
                linesSinceReport = 0;
            }
        }
        // Keep the unfinished tail for the next block, unless it is already
        // too long to ever be accepted: then only count its bytes.
        const size_t tail = pos < filled ? filled - pos : 0;
        if (oversize > 0 || qint64(tail) > maxLineBytes) {
            oversize += qint64(tail);
            carried = 0;
        } else {
            memmove(buffer.data(), buffer.data() + pos, tail);
            carried = tail;
        }
        if (control)
            control->addProcessed(got, 0);
    }
    if (control)
        control->addProcessed(0, linesSinceReport);
    return true;
}
