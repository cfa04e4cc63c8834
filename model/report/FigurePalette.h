#pragma once

#include "store/Phase.h"
#include "store/SpanCategory.h"

#include <QString>

// Colours of the report's figures as SVG colour strings. They are the
// views' colours (widgets/PhaseColors.h, widgets/SpanCategoryColors.h:
// Okabe–Ito, safe for the common colour-vision deficiencies), repeated here
// because model/ has no QColor; a widget test keeps the two in step.
namespace FigurePalette {

inline QString phase(Phase phase)
{
    switch (phase) {
    case Phase::NetworkIn:
        return QStringLiteral("#56b4e9");
    case Phase::Gateway:
        return QStringLiteral("#cc79a7");
    case Phase::Queue:
        return QStringLiteral("#e69f00");
    case Phase::Prefill:
        return QStringLiteral("#0072b2");
    case Phase::FirstDecode:
        return QStringLiteral("#d55e00");
    case Phase::NetworkToFirst:
        return QStringLiteral("#f0e442");
    case Phase::Stream:
        return QStringLiteral("#009e73");
    }
    return QStringLiteral("#a0a0a0");
}

inline QString residual()
{
    return QStringLiteral("#c0c0c0");
}

inline QString category(SpanCategory category)
{
    switch (category) {
    case SpanCategory::Agent:
        return QStringLiteral("#9e8fc7");
    case SpanCategory::ModelCall:
        return QStringLiteral("#0072b2");
    case SpanCategory::Tool:
        return QStringLiteral("#e69f00");
    case SpanCategory::Retrieval:
        return QStringLiteral("#009e73");
    case SpanCategory::Embeddings:
        return QStringLiteral("#f0e442");
    case SpanCategory::Network:
        return QStringLiteral("#56b4e9");
    case SpanCategory::Gateway:
        return QStringLiteral("#cc79a7");
    case SpanCategory::Preparation:
        return QStringLiteral("#a6761d");
    case SpanCategory::Other:
        break;
    }
    return QStringLiteral("#a0a0a0");
}

inline QString criticalPath()
{
    return QStringLiteral("#d55e00");
}

// Curves of several classes (Okabe–Ito order, black last for "overall").
inline QString series(int index)
{
    static const char *colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442"};
    return QLatin1String(colours[index % 7]);
}

} // namespace FigurePalette
