#pragma once

#include "SpanGraph.h"

#include <QString>

#include <memory>
#include <vector>

class TraceStore;

// Turns one workflow of a TraceStore into the SpanGraph the critical-path
// and what-if analyses read. Edges are indexed by workflow once, so
// building every workflow of a large store stays linear.
// - parent: the span's parent row within the workflow; a parent outside it
//   (an orphan) makes the span a root.
// - non-blocking children: a FOLLOWS_FROM edge from the parent, or a
//   PRODUCER parent with a CONSUMER child (as in Jaeger).
// - dependencies: the store's Dependency edges (tracelane.depends_on,
//   links typed depends_on).
// - phases and first token: a model call's contract stamps give its phases
//   (consecutive stamps, as for flat requests) and, when it is
//   content-bearing, its first client token (else its first client token
//   time); the stream runs from the first to the last client token, or to
//   the span's end when the last is not recorded.
class SpanGraphBuilder
{
public:
    explicit SpanGraphBuilder(const TraceStore &store);

    // Names, operations and ids are what people read; an analysis of every
    // workflow that only needs times and structure leaves them out
    // (Detail::Structure) and rebuilds a workflow in full to explain an error.
    enum class Detail { Full, Structure };

    std::shared_ptr<SpanGraph> build(qint32 workflow, Detail detail = Detail::Full) const;

private:
    const TraceStore &m_store;
    std::vector<qint32> m_edgeBegin; // per workflow, into m_edges
    std::vector<qint32> m_edges;     // edge indices grouped by workflow
};
