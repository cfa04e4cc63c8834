#pragma once

#include "store/Phase.h"

#include <QColor>

// Phase colours from the Okabe–Ito palette, which stays distinguishable under
// the common colour-vision deficiencies. Residual (unobserved) time is a
// neutral grey so it never reads as a phase.
namespace PhaseColors {

inline QColor of(Phase phase)
{
    switch (phase) {
    case Phase::NetworkIn:
        return QColor(0x56, 0xB4, 0xE9); // sky blue
    case Phase::Gateway:
        return QColor(0xCC, 0x79, 0xA7); // reddish purple
    case Phase::Queue:
        return QColor(0xE6, 0x9F, 0x00); // orange
    case Phase::Prefill:
        return QColor(0x00, 0x72, 0xB2); // blue
    case Phase::FirstDecode:
        return QColor(0xD5, 0x5E, 0x00); // vermillion
    case Phase::NetworkToFirst:
        return QColor(0xF0, 0xE4, 0x42); // yellow
    case Phase::Stream:
        return QColor(0x00, 0x9E, 0x73); // bluish green
    }
    return Qt::gray;
}

// Light enough to stay 16 CIELAB units from the reddish purple under
// deuteranopia (0xB0 grey was 11), dark enough to stand out on white.
inline QColor residual()
{
    return QColor(0xC0, 0xC0, 0xC0);
}

} // namespace PhaseColors
