#pragma once

#include "RequestStream.h"
#include "StallRule.h"

#include "store/RowSet.h"

#include <QString>

#include <limits>
#include <vector>

// Server against client token times of one request: which server tokens
// each client event carried, and whether each client stall had the server
// paused too (decode) or tokens ready and held back (transport, buffering,
// client handling).
struct AlignedStream
{
    static constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

    qint64 serverTokens = 0;
    qint64 clientEvents = 0;
    qint64 transitNs = 0;               // first client event − first server token, ≥ 0
    std::vector<qint32> tokensPerEvent; // per client event: given by the source or aligned by time
    bool countsGiven = false;           // the source said how many tokens each event carried
    double serverGapCv = kNan;
    double clientGapCv = kNan;
    qint64 serverStalls = 0;
    qint64 clientStalls = 0;
    qint64 decodeStalls = 0;    // client stalls with the server paused for half of it or more
    qint64 transportStalls = 0; // client stalls while the server kept producing
};

enum class StreamMechanism : int {
    NotJudged,          // no request has both sides
    None,               // client events follow server tokens: no clusters, no stalls
    TransportBuffering, // server smooth, client clustered or stalled: transport, buffering, client
    Decode,             // the server itself stalled and the client stalls follow it
    Both,
};

QString streamMechanismKey(StreamMechanism mechanism);
QString streamMechanismLabel(StreamMechanism mechanism);

// Coalescing over the requests that have both server and client token times.
struct CoalescingReport
{
    static constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
    static constexpr int kMaxClusterSize = 16; // sizes above are counted together

    qint64 requests = 0;
    qint64 coalescedRequests = 0; // a tenth or more of their client events carried several tokens
    qint64 clientEvents = 0;
    qint64 multiTokenEvents = 0; // client events carrying more than one token
    double multiTokenShare = 0.0;
    std::vector<qint64> clusterSizes; // [k] = events carrying k tokens, k = 1..16 (16 = 16+)
    double medianServerGapCv = kNan;  // over requests with 3 gaps or more
    double medianClientGapCv = kNan;
    qint64 serverStalls = 0;
    qint64 clientStalls = 0;
    qint64 decodeStalls = 0;
    qint64 transportStalls = 0;
    StreamMechanism mechanism = StreamMechanism::NotJudged;
    QString reason;   // what in the numbers names the mechanism
    QString nextTest; // the experiment that would confirm it
};

namespace StreamAlignment {

// `row` must have both server and client events.
AlignedStream align(const TokenTimeline &server, const TokenTimeline &client, qsizetype row, const StallRule &rule);

CoalescingReport coalescing(const RequestTable &table, const RowSet *scope, const StallRule &rule);

// The next test for a mechanism, in our words (from the seed's "log each
// server token and compare it with each received stream event").
QString nextTestFor(StreamMechanism mechanism);

} // namespace StreamAlignment
