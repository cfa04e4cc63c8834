#pragma once

#include "RequestStream.h"
#include "StallRule.h"

#include <span>
#include <vector>

// Every stall of every request on one side, row by row, for drawing on the
// swimlanes: built once per trace and rule off the GUI thread.
struct StallMarks
{
    StreamSide side = StreamSide::Client;
    StallRule rule;
    std::vector<quint64> offsets; // rows + 1; stalls of row r are stalls[offsets[r] .. offsets[r + 1])
    std::vector<StreamGap> stalls;

    bool isEmpty() const { return stalls.empty(); }
    std::span<const StreamGap> of(qsizetype row) const
    {
        if (row < 0 || size_t(row) + 1 >= offsets.size())
            return {};
        return {stalls.data() + offsets[size_t(row)], size_t(offsets[size_t(row) + 1] - offsets[size_t(row)])};
    }

    // The client side when the trace has client events, else the server's.
    static StallMarks compute(const RequestTable &table, const StallRule &rule);
};
