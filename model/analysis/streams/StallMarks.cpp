#include "StallMarks.h"

StallMarks StallMarks::compute(const RequestTable &table, const StallRule &rule)
{
    StallMarks marks;
    marks.rule = rule;
    marks.side = table.clientTokens().isEmpty() ? StreamSide::Server : StreamSide::Client;
    const TokenTimeline &timeline = tokenTimeline(table, marks.side);
    marks.offsets.reserve(size_t(table.rowCount()) + 1);
    marks.offsets.push_back(0);
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (timeline.countFor(row) > 2) {
            const auto stalls = RequestStream::stalls(timeline, row, rule);
            marks.stalls.insert(marks.stalls.end(), stalls.begin(), stalls.end());
        }
        marks.offsets.push_back(marks.stalls.size());
    }
    return marks;
}
