#pragma once

#include <QString>
#include <QtGlobal>

#include <functional>
#include <string_view>
#include <vector>

class LoadControl;

// Where a worker's share of a file begins and ends; boundaries sit just after
// a newline so every line belongs to exactly one range.
struct ByteRange
{
    qint64 begin = 0;
    qint64 end = 0;
};

// Splits a file of `size` bytes into at most `count` line-aligned ranges by
// peeking at the bytes near each cut. Reads only a few KiB.
std::vector<ByteRange> splitFileIntoLineRanges(const QString &path, qint64 size, int count);

// One line handed to a visitor. `text` excludes the line end and a trailing
// '\r'. An over-long line is not buffered: `text` is empty, `oversizeBytes`
// holds its length.
struct LineView
{
    std::string_view text;
    qint64 number = 0; // 1-based within the range
    bool crlf = false;
    bool terminated = true; // false for a last line without '\n'
    qint64 oversizeBytes = 0;
};

// Reads [range.begin, range.end) of a file in blocks and calls `visit` for
// every line; the visitor returns false to stop. Reports processed bytes to
// `control` and stops when it is cancelled. Returns false with `error` set
// when the file cannot be read.
bool streamLines(const QString &path, ByteRange range, qint64 maxLineBytes, LoadControl *control,
                 const std::function<bool(const LineView &)> &visit, QString *error);
