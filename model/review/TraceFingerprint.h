#pragma once

#include <QString>

#include <atomic>

// What a session remembers of a trace file's content, so reopening it on a
// file that changed since says so instead of drawing different numbers
// under the saved coordinates: the size in bytes and the SHA-256 of the
// bytes as stored (a .gz is hashed compressed).
struct TraceFingerprint
{
    qint64 bytes = -1; // -1: not known (an older or hand-written session)
    QString sha256;    // lowercase hex

    bool isKnown() const { return bytes >= 0 && !sha256.isEmpty(); }
    bool operator==(const TraceFingerprint &other) const = default;

    // Reads the whole file (1 MiB at a time); unknown when it cannot be
    // read or `cancelled` is set.
    static TraceFingerprint of(const QString &path, const std::atomic<bool> *cancelled = nullptr);
};
