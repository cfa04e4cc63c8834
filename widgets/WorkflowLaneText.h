#pragma once

#include <QString>

class TraceStore;
class WorkflowLanes;

// Words for a workflow lane: what the tooltip says about the moment under
// the cursor (the span on the critical path there, the off-path work
// beneath, with its slack) and about the workflow as a whole.
namespace WorkflowLaneText {

// `ms` is the time under the cursor from the lane's origin; `offPathBand`
// says the cursor is on the faint band, so the off-path span is the one
// pointed at.
QString tooltipHtml(const TraceStore &store, const WorkflowLanes &lanes, qint32 lane, double ms, bool offPathBand);

// "long-lived stream (one span, no children, far longer than the rest)"
// and the like, or empty.
QString flagText(const WorkflowLanes &lanes, qint32 lane);

} // namespace WorkflowLaneText
