#pragma once

#include <QString>
#include <QtGlobal>

#include <functional>

class ClickHouseClient;
struct TraceStore;

// Copies a loaded trace into Tracelane's tables (TracelaneSchema), in batches.
// Every row carries the SHA-256 of the file it came from and its batch number;
// a batch lands whole on one shard (the Distributed table shards by source
// and batch) in one INSERT, so it is either there or not. A push first asks
// which batches of this file are already there and sends only the others:
// running it again after an interruption, or on the same file twice, never
// duplicates a row.
struct PushProgress
{
    qint64 batchesDone = 0;
    qint64 batchesTotal = 0;
    qint64 rowsSent = 0;
};

struct PushResult
{
    bool ok = false;
    QString error;
    qint64 requestRows = 0;    // requests the trace holds
    qint64 spanRows = 0;       // spans the trace holds
    qint64 batches = 0;        // batches of both tables
    qint64 skippedBatches = 0; // already there from an earlier push
    qint64 rowsSent = 0;
};

namespace TracePush {

inline constexpr int kDefaultBatchRows = 50'000;

// SHA-256 of the file's bytes, hex; empty when it cannot be read.
QString fileDigest(const QString &path, QString *error);

PushResult push(const ClickHouseClient &client, const TraceStore &store, const QString &digest, int batchRows,
                const std::function<void(const PushProgress &)> &progress = {});

} // namespace TracePush
