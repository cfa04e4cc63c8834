#pragma once

#include "PhaseColors.h"
#include "analysis/workflows/WorkKind.h"

#include <QColor>

#include <cmath>

// Colours of workflow kinds, shared by the workflow swimlanes and the span
// Gantt. A model call's phases keep the request phase colours (queue orange,
// prefill blue, first token vermillion, decode green as the stream); the
// other kinds take colours chosen so that every pair, and each against the
// light and dark lane backgrounds, stays at least 12 CIELAB units apart
// under protanopia, deuteranopia and tritanopia (checked by
// tst_workkindcolors). Idle time is the residual grey: not observed.
namespace WorkKindColors {

inline QColor of(WorkKind kind)
{
    switch (kind) {
    case WorkKind::Queue:
        return PhaseColors::of(Phase::Queue);
    case WorkKind::Prefill:
        return PhaseColors::of(Phase::Prefill);
    case WorkKind::FirstToken:
        return PhaseColors::of(Phase::FirstDecode);
    case WorkKind::Decode:
        return PhaseColors::of(Phase::Stream);
    case WorkKind::ModelCall:
        return QColor(0x33, 0x22, 0x88); // indigo
    case WorkKind::Tool:
        return QColor(0xAA, 0x33, 0x77); // purple
    case WorkKind::Retrieval:
        return QColor(0x11, 0x77, 0x33); // green
    case WorkKind::Embeddings:
        return QColor(0xF0, 0xE4, 0x42); // yellow
    case WorkKind::Coordination:
        return QColor(0xEB, 0xD5, 0xF5); // pale lavender: containers stay quiet
    case WorkKind::Network:
        return PhaseColors::of(Phase::NetworkIn);
    case WorkKind::Gateway:
        return PhaseColors::of(Phase::Gateway);
    case WorkKind::Preparation:
        return QColor(0x6B, 0x3E, 0x00); // brown
    case WorkKind::Other:
        return QColor(0x40, 0x40, 0x40); // dark grey
    case WorkKind::Idle:
        break;
    }
    return PhaseColors::residual();
}

// Off-path work: the kind's colour mixed into the background, so parallel
// branches show without competing with the path.
inline QColor faint(WorkKind kind, const QColor &background)
{
    constexpr double kStrength = 0.4;
    const QColor colour = of(kind);
    const auto mix = [](int from, int to) { return int(std::lround(from + (to - from) * kStrength)); };
    return QColor(mix(background.red(), colour.red()), mix(background.green(), colour.green()),
                  mix(background.blue(), colour.blue()));
}

} // namespace WorkKindColors
