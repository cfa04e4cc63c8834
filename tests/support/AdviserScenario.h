#pragma once

#include "analysis/workflows/SpanGraph.h"

#include <memory>

// The domain reference's "governed adviser response", built directly as a
// span graph (times in ms from the client's send): inbound 70, gateway and
// policy 45, retrieval 430 (policy retrieval 430 beside account retrieval
// 280), prompt assembly 25, a model call (queue 610, prefill 285, first
// decode and return 85, an 18-token tool proposal over 396), the tool 760,
// a second model call (640 to its first token, 110 tokens over 2,640).
namespace AdviserScenario {

struct Options
{
    double firstQueueMs = 610.0;
    // Account retrieval cannot start until policy retrieval has found the
    // account: recorded as a dependency, and everything after moves 280 ms.
    bool accountAfterPolicy = false;
};

std::shared_ptr<SpanGraph> graph(const Options &options = {});

} // namespace AdviserScenario
