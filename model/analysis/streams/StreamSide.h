#pragma once

#include "store/RequestTable.h"

#include <QString>

// Which side of a stream a token time was seen on: the server emitting the
// token, or the client receiving the stream event that carried it. The two
// are kept apart everywhere; a figure names its side.
enum class StreamSide : int { Server, Client };

inline QString streamSideKey(StreamSide side)
{
    return side == StreamSide::Server ? QStringLiteral("server") : QStringLiteral("client");
}

inline const TokenTimeline &tokenTimeline(const RequestTable &table, StreamSide side)
{
    return side == StreamSide::Server ? table.serverTokens() : table.clientTokens();
}
