#pragma once

#include "store/ColumnMemory.h"

#include <QtGlobal>

#include <vector>

class RequestTable;

// Whether the request ids of a file loaded in chunks may repeat, decided
// without comparing ids: each id's 64-bit hash, spread over parts by the
// hash's top bits so that each thread checks one part of every chunk alone.
// Equal hashes send the load to the row-by-row merge, which compares the ids
// themselves, so a collision costs time, never a wrong answer.
namespace IdRepeatCheck {

using Hashes = std::vector<ColumnVector<quint64>>; // one chunk's, by part

// The hash of every request id of `table` (one chunk), split into `parts`.
// Run by the thread that parsed the chunk, as soon as it is done: each id is
// hashed once, while the other threads may still be parsing.
Hashes hashIds(const RequestTable &table, size_t parts);

// Whether two of `hashes` are equal. They are spread over up to 2^16
// buckets by their low bits (two sequential passes), about eight to a
// bucket, each sorted in cache. A full radix sort took eight passes.
bool hasEqualHashes(const ColumnVector<quint64> &hashes);

// False when every id of every chunk is distinct, true when two may be
// equal. `byChunk` holds each chunk's hashIds() with the same parts; thread
// p checks part p of every chunk. The hashes are released as they are read.
bool mayRepeat(std::vector<Hashes> byChunk);

} // namespace IdRepeatCheck
