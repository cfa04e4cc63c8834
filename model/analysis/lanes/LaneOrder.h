#pragma once

#include "analysis/requests/Boundary.h"
#include "analysis/requests/Metric.h"

#include <QString>

// How the swimlane orders and groups its lanes: by arrival (client send),
// by a metric (TTFT, ITL, E2E, a phase), or by a class attribute, optionally
// grouped by a categorical attribute with one header per value.
struct LaneOrder
{
    enum class Key { Arrival, Metric, Attribute };

    Key key = Key::Arrival;
    Metric metric = Metric::Ttft; // used when key == Metric
    QString attribute;            // used when key == Attribute
    bool descending = false;
    Boundary boundary = Boundary::Client;
    QString groupBy; // empty: one ungrouped list

    friend bool operator==(const LaneOrder &, const LaneOrder &) = default;
};
