#pragma once

#include "AttributeProjection.h"
#include "store/TraceStore.h"

#include <QString>

#include <memory>

struct LoadOptions
{
    // Fail on the first rejected record instead of collecting them.
    bool strict = false;
    // Worker threads for chunked parsing; 0 means one per core.
    int threads = 0;
    // A single record longer than this is rejected unread.
    qint64 maxRecordBytes = qint64{16} * 1024 * 1024;
    // The class attributes to store (every one unless a command asks for
    // fewer); only the seed formats' loaders leave any out.
    AttributeProjection attributes;
};

// Outcome of loading one file. `fatalError` is set when nothing could be
// loaded (unreadable, empty, wrong format, strict-mode failure); otherwise the
// store holds every valid record and the rejected ones with their reasons.
struct LoadResult
{
    std::shared_ptr<TraceStore> store = std::make_shared<TraceStore>();
    QString fatalError;
    // A server's table refused for its size: keeping one request (or trace)
    // in this many would fit (the URL's sample=N); 0 when nothing would.
    qint64 sampleThatFits = 0;
    bool cancelled = false;
    qint64 bytes = 0;

    bool ok() const { return fatalError.isEmpty() && !cancelled; }
};
