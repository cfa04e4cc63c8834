#include "StreamAlignment.h"

#include <algorithm>
#include <cmath>

namespace {

double median(std::vector<double> values)
{
    std::erase_if(values, [](double v) { return std::isnan(v); });
    if (values.empty())
        return std::nan("");
    std::sort(values.begin(), values.end());
    const double rank = double(values.size() - 1) * 0.5;
    const auto lo = size_t(rank);
    const size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (values[hi] - values[lo]) * (rank - double(lo));
}

QString percent(double share)
{
    return QString::number(100.0 * share, 'f', share < 0.1 ? 1 : 0) + QLatin1Char('%');
}

} // namespace

QString streamMechanismKey(StreamMechanism mechanism)
{
    switch (mechanism) {
    case StreamMechanism::NotJudged:
        return QStringLiteral("not_judged");
    case StreamMechanism::None:
        return QStringLiteral("none");
    case StreamMechanism::TransportBuffering:
        return QStringLiteral("transport_buffering");
    case StreamMechanism::Decode:
        return QStringLiteral("decode");
    case StreamMechanism::Both:
        return QStringLiteral("decode_and_transport");
    }
    return {};
}

QString streamMechanismLabel(StreamMechanism mechanism)
{
    switch (mechanism) {
    case StreamMechanism::NotJudged:
        return QStringLiteral("not judged (no request has both server and client token times)");
    case StreamMechanism::None:
        return QStringLiteral("none: client events follow the server's tokens");
    case StreamMechanism::TransportBuffering:
        return QStringLiteral("transport, buffering or client handling (the server's tokens are smooth)");
    case StreamMechanism::Decode:
        return QStringLiteral("decode (the server itself stalls)");
    case StreamMechanism::Both:
        return QStringLiteral("both: the server stalls, and tokens it produced are also held back on the way");
    }
    return {};
}

namespace StreamAlignment {

AlignedStream align(const TokenTimeline &server, const TokenTimeline &client, qsizetype row, const StallRule &rule)
{
    AlignedStream aligned;
    // Server tokens one by one (an event of k tokens gives k equal times).
    std::vector<qint64> tokenTimes;
    std::vector<qint64> serverEvents;
    server.forEachEvent(row, [&](const TokenTimeline::Event &event) {
        tokenTimes.insert(tokenTimes.end(), size_t(event.tokens), event.time);
        serverEvents.push_back(event.time);
    });
    std::vector<TokenTimeline::Event> events = client.events(row);
    std::sort(serverEvents.begin(), serverEvents.end()); // the calls of a workflow may overlap
    std::sort(tokenTimes.begin(), tokenTimes.end());
    aligned.serverTokens = qint64(tokenTimes.size());
    aligned.clientEvents = qint64(events.size());
    if (tokenTimes.empty() || events.empty())
        return aligned;
    aligned.transitNs = qMax<qint64>(0, events.front().time - tokenTimes.front());

    qint64 carried = 0;
    bool anySeveral = false;
    for (const auto &event : events) {
        carried += event.tokens;
        anySeveral = anySeveral || event.tokens > 1;
    }
    aligned.countsGiven = anySeveral || carried == aligned.serverTokens;
    aligned.tokensPerEvent.reserve(events.size());
    if (aligned.countsGiven) {
        for (const auto &event : events)
            aligned.tokensPerEvent.push_back(event.tokens);
    } else {
        // Event j carries the tokens the server had produced by its arrival
        // less the transit, at least one each, and the last event the rest.
        const qint64 n = aligned.serverTokens;
        const auto m = qint64(events.size());
        qint64 previous = 0;
        for (qint64 j = 0; j < m; ++j) {
            const qint64 byThen
                = std::upper_bound(tokenTimes.begin(), tokenTimes.end(), events[size_t(j)].time - aligned.transitNs)
                - tokenTimes.begin();
            qint64 cumulative = std::clamp(byThen, previous + 1, n - (m - 1 - j));
            if (j == m - 1)
                cumulative = n;
            aligned.tokensPerEvent.push_back(qint32(cumulative - previous));
            previous = cumulative;
        }
    }

    const auto serverStats = RequestStream::analyse(server, row, 0, rule);
    const auto clientStats = RequestStream::analyse(client, row, 0, rule);
    aligned.serverGapCv = serverStats.gaps >= 3 ? serverStats.gapCv : std::nan("");
    aligned.clientGapCv = clientStats.gaps >= 3 ? clientStats.gapCv : std::nan("");
    aligned.serverStalls = serverStats.stalls;
    for (const StreamGap &stall : RequestStream::stalls(client, row, rule)) {
        ++aligned.clientStalls;
        // The server's longest pause inside the stall's window, moved back by the transit.
        const qint64 from = stall.startNs - aligned.transitNs;
        const qint64 to = from + stall.ns;
        qint64 paused = 0;
        const auto first = std::upper_bound(serverEvents.begin(), serverEvents.end(), from) - serverEvents.begin();
        for (auto i = qMax<qint64>(first, 1); i < qint64(serverEvents.size()) && serverEvents[size_t(i - 1)] < to; ++i)
            paused = qMax(paused, qMin(serverEvents[size_t(i)], to) - qMax(serverEvents[size_t(i - 1)], from));
        if (2 * paused >= stall.ns)
            ++aligned.decodeStalls;
        else
            ++aligned.transportStalls;
    }
    return aligned;
}

QString nextTestFor(StreamMechanism mechanism)
{
    switch (mechanism) {
    case StreamMechanism::TransportBuffering:
        return QStringLiteral("turn off response buffering and compression on one hop at a time between the server "
                              "and the client (proxy, gateway, client library) and flush after every chunk; the hop "
                              "whose change dissolves the clusters is holding the tokens");
    case StreamMechanism::Decode:
        return QStringLiteral("line the server's pauses up with what its batch held at that moment (a long prefill "
                              "joining, preemption, KV-cache swaps, cross-node transfers), then vary batch size or "
                              "turn on chunked prefill and check that the server gaps shrink");
    case StreamMechanism::Both:
        return QStringLiteral("first remove buffering on the return path (cheap to test) and check that the client "
                              "clusters dissolve; then line the server pauses that remain up with what the batch held "
                              "at that moment");
    case StreamMechanism::None:
        return QStringLiteral("none needed for the stream; look at TTFT phases or the load instead");
    case StreamMechanism::NotJudged:
        return QStringLiteral("log each server token and each received stream event for the same requests on one "
                              "clock (server_token_ms and client_token_ms), then compare them here");
    }
    return {};
}

CoalescingReport coalescing(const RequestTable &table, const RowSet *scope, const StallRule &rule)
{
    CoalescingReport report;
    report.clusterSizes.assign(CoalescingReport::kMaxClusterSize + 1, 0);
    const TokenTimeline &server = table.serverTokens();
    const TokenTimeline &client = table.clientTokens();
    std::vector<double> serverCv;
    std::vector<double> clientCv;
    const auto visit = [&](qsizetype row) {
        if (server.countFor(row) == 0 || client.countFor(row) == 0)
            return;
        const AlignedStream aligned = align(server, client, row, rule);
        ++report.requests;
        report.clientEvents += aligned.clientEvents;
        qint64 several = 0;
        for (const qint32 tokens : aligned.tokensPerEvent) {
            several += tokens > 1 ? 1 : 0;
            ++report.clusterSizes[size_t(qMin(tokens, CoalescingReport::kMaxClusterSize))];
        }
        report.multiTokenEvents += several;
        report.coalescedRequests += several * 10 >= aligned.clientEvents && several > 0 ? 1 : 0;
        serverCv.push_back(aligned.serverGapCv);
        clientCv.push_back(aligned.clientGapCv);
        report.serverStalls += aligned.serverStalls;
        report.clientStalls += aligned.clientStalls;
        report.decodeStalls += aligned.decodeStalls;
        report.transportStalls += aligned.transportStalls;
    };
    if (scope) {
        for (const qint32 row : *scope)
            visit(row);
    } else {
        for (qsizetype row = 0; row < table.rowCount(); ++row)
            visit(row);
    }
    if (report.requests == 0) {
        report.reason = QStringLiteral("needs server and client token times for the same requests");
        report.nextTest = nextTestFor(report.mechanism);
        return report;
    }
    report.multiTokenShare
        = report.clientEvents > 0 ? double(report.multiTokenEvents) / double(report.clientEvents) : 0.0;
    report.medianServerGapCv = median(serverCv);
    report.medianClientGapCv = median(clientCv);

    // Clusters: client events that carry several tokens (a tenth of all
    // events, or of the events of a tenth of the requests), or client gaps
    // that vary half again as much as the server's (bursts of events).
    const bool clustered = report.multiTokenShare >= 0.10 || report.coalescedRequests * 10 >= report.requests
        || (report.medianClientGapCv >= 1.5 * report.medianServerGapCv && report.medianServerGapCv > 0.0);
    const bool decodeStalls = report.decodeStalls > 0 && report.decodeStalls >= report.transportStalls;
    const bool transportStalls = report.transportStalls > report.decodeStalls;
    const QString cv = QStringLiteral("median gap CV %1 at the server, %2 at the client")
                           .arg(report.medianServerGapCv, 0, 'f', 2)
                           .arg(report.medianClientGapCv, 0, 'f', 2);
    if (decodeStalls && (clustered || report.transportStalls * 3 >= report.clientStalls)) {
        report.mechanism = StreamMechanism::Both;
        report.reason = QStringLiteral("%1 of %2 client stalls line up with a server pause, but client events of %3 "
                                       "of %4 requests arrive in clusters (%5 of all events carry several tokens) and "
                                       "%6 stalls happened while the server kept producing (%7)")
                            .arg(report.decodeStalls)
                            .arg(report.clientStalls)
                            .arg(report.coalescedRequests)
                            .arg(report.requests)
                            .arg(percent(report.multiTokenShare))
                            .arg(report.transportStalls)
                            .arg(cv);
    } else if (decodeStalls) {
        report.mechanism = StreamMechanism::Decode;
        report.reason = QStringLiteral("%1 of %2 client stalls line up with a pause of the server itself (%3 server "
                                       "stalls); the return path passes them on")
                            .arg(report.decodeStalls)
                            .arg(report.clientStalls)
                            .arg(report.serverStalls);
    } else if (clustered || transportStalls) {
        report.mechanism = StreamMechanism::TransportBuffering;
        report.reason = QStringLiteral("server token times are smooth while client events arrive in clusters: client "
                                       "events of %1 of %2 requests carry several tokens (%3 of all events), %4 of %5 "
                                       "client stalls happened while the server kept producing (%6)")
                            .arg(report.coalescedRequests)
                            .arg(report.requests)
                            .arg(percent(report.multiTokenShare))
                            .arg(report.transportStalls)
                            .arg(report.clientStalls)
                            .arg(cv);
    } else if (report.serverStalls > 0) {
        report.mechanism = StreamMechanism::Decode;
        report.reason = QStringLiteral("the server stalls %1 times; the client sees no stall of its own")
                            .arg(report.serverStalls);
    } else {
        report.mechanism = StreamMechanism::None;
        report.reason = QStringLiteral("no stalls on either side and %1 of client events carry several tokens (%2)")
                            .arg(percent(report.multiTokenShare), cv);
    }
    report.nextTest = nextTestFor(report.mechanism);
    return report;
}

} // namespace StreamAlignment
