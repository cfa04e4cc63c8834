#include "PhaseLegend.h"

#include "PhaseColors.h"
#include "SwimlaneColors.h"

#include <QEvent>

PhaseLegend::PhaseLegend(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("phaseLegend"));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setText(html(palette()));
}

QString PhaseLegend::html(const QPalette &palette)
{
    auto swatch = [](const QColor &colour, const QString &label) {
        return QStringLiteral("<span style='color:%1; font-size:large'>\u25a0</span>&nbsp;%2&nbsp;&nbsp; ")
            .arg(colour.name(), label.toHtmlEscaped());
    };
    QString text;
    for (const Phase phase : kAllPhases)
        text += swatch(PhaseColors::of(phase), phaseLabel(phase));
    text += swatch(PhaseColors::residual(), tr("Residual (not observed)"));
    const SwimlaneColors colors = SwimlaneColors::fromPalette(palette);
    text += QStringLiteral("<span style='color:%1; font-size:large'>\u258c</span>&nbsp;%2")
                .arg(colors.exceedance.name(), tr("exceedance member").toHtmlEscaped());
    return text;
}

void PhaseLegend::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        setText(html(palette()));
    QLabel::changeEvent(event);
}
