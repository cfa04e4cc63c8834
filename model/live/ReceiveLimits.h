#pragma once

#include "io/TimeLimits.h"

#include <QtGlobal>

// What one OTLP receiver accepts. A request over a byte limit is refused
// whole (413); a span over a per-span limit is rejected alone and counted
// in the response's partial_success.
struct ReceiveLimits
{
    // Body as sent (compressed or not).
    qint64 maxBodyBytes = qint64{16} * 1024 * 1024;
    // Body after gzip: a small body that inflates past this is a gzip bomb.
    qint64 maxDecompressedBytes = qint64{64} * 1024 * 1024;
    // Per span (resource and scope attributes count too, on their own).
    int maxAttributes = 128;
    qint64 maxAttributeBytes = qint64{64} * 1024; // one key or value as text
    int maxEvents = 4096;
    int maxLinks = 1024;
    // A live span this far from the receiver's clock has a broken or
    // wrong-unit timestamp (the file loaders' 30-day rule, against now).
    qint64 maxClockDistanceNs = TimeLimits::kMaxDurationNs;
    // Spans received but not yet taken by the store; past it, exporters are
    // told to retry later (429 with Retry-After).
    qint64 maxBufferedSpans = 500'000;
};
