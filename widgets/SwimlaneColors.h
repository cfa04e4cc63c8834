#pragma once

#include "PhaseColors.h"
#include "WorkKindColors.h"
#include "analysis/lanes/LaneActivity.h"

#include <QColor>
#include <QPalette>
#include <QRgb>

#include <array>

// The colours a swimlane frame is drawn with, taken from the palette so
// light and dark themes both read well. Phase colours stay fixed (they are
// the legend's promise); everything around them follows the palette.
struct SwimlaneColors
{
    std::array<QRgb, LaneActivity::kCategories> categories{};
    // Workflow lanes: the kind on the critical path, and off-path work (faint).
    std::array<QRgb, kWorkKindCount> kinds{};
    std::array<QRgb, kWorkKindCount> faintKinds{};
    QRgb background = 0;
    QRgb headerBackground = 0;
    QRgb gridLine = 0;
    QRgb text = 0;
    QColor selection;
    QColor exceedance;
    QColor bookmark;
    QColor current;

    static SwimlaneColors fromPalette(const QPalette &palette)
    {
        SwimlaneColors colors;
        for (const Phase phase : kAllPhases)
            colors.categories[size_t(phase)] = PhaseColors::of(phase).rgb();
        colors.categories[LaneActivity::kResidual] = PhaseColors::residual().rgb();
        const QColor base = palette.color(QPalette::Base);
        for (int k = 0; k < kWorkKindCount; ++k) {
            colors.kinds[size_t(k)] = WorkKindColors::of(WorkKind(k)).rgb();
            colors.faintKinds[size_t(k)] = WorkKindColors::faint(WorkKind(k), base).rgb();
        }
        const bool dark = base.lightness() < 128;
        colors.background = base.rgb();
        colors.headerBackground = (dark ? base.lighter(160) : base.darker(112)).rgb();
        colors.gridLine = (dark ? base.lighter(135) : base.darker(106)).rgb();
        colors.text = palette.color(QPalette::Text).rgb();
        colors.selection = palette.color(QPalette::Highlight);
        // Exceedance members: a red outside the phase palette, readable on both themes.
        colors.exceedance = dark ? QColor(0xFF, 0x5C, 0x5C) : QColor(0xC0, 0x00, 0x20);
        // Bookmarks (notes): a purple in the right gutter, apart from phases and members.
        colors.bookmark = dark ? QColor(0xC4, 0x9C, 0xFF) : QColor(0x5B, 0x2A, 0x86);
        colors.current = palette.color(QPalette::Text);
        return colors;
    }

    friend bool operator==(const SwimlaneColors &, const SwimlaneColors &) = default;
};
