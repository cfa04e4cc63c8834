#pragma once

#include "store/SpanCategory.h"

#include <QColor>

// Colours of span kinds in the workflow Gantt (Okabe–Ito based), and of the
// overlays drawn on top of them. Network and gateway spans share the colour
// of the phase of the same name, since both views are on screen together.
namespace SpanCategoryColors {

inline QColor of(SpanCategory category)
{
    switch (category) {
    case SpanCategory::Agent:
        return QColor(0x9E, 0x8F, 0xC7); // lavender: containers stay quiet
    case SpanCategory::ModelCall:
        return QColor(0x00, 0x72, 0xB2); // blue
    case SpanCategory::Tool:
        return QColor(0xE6, 0x9F, 0x00); // orange
    case SpanCategory::Retrieval:
        return QColor(0x00, 0x9E, 0x73); // bluish green
    case SpanCategory::Embeddings:
        return QColor(0xF0, 0xE4, 0x42); // yellow
    case SpanCategory::Network:
        return QColor(0x56, 0xB4, 0xE9); // sky blue, as the network-in phase
    case SpanCategory::Gateway:
        return QColor(0xCC, 0x79, 0xA7); // reddish purple, as the gateway phase
    case SpanCategory::Preparation:
        return QColor(0xA6, 0x76, 0x1D); // ochre
    case SpanCategory::Other:
        break;
    }
    return QColor(0xA0, 0xA0, 0xA0);
}

inline QColor criticalPath()
{
    return QColor(0xD5, 0x5E, 0x00);
} // vermillion
inline QColor slack()
{
    return QColor(0x40, 0x40, 0x40);
}
inline QColor dependency()
{
    return QColor(0x70, 0x70, 0x70);
}
inline QColor original()
{
    return QColor(0x80, 0x80, 0x80);
} // a what-if's "before" outline
inline QColor orphan()
{
    return QColor(0x88, 0x22, 0x55);
} // wine: parent not in the trace

} // namespace SpanCategoryColors
