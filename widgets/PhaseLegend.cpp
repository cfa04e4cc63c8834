#include "PhaseLegend.h"

#include "PhaseColors.h"
#include "SwimlaneColors.h"
#include "WorkKindColors.h"

#include <QEvent>

#include <algorithm>

bool PhaseLegend::Content::anyKind() const
{
    return std::any_of(kinds.begin(), kinds.end(), [](bool shown) { return shown; });
}

PhaseLegend::PhaseLegend(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("phaseLegend"));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setText(html(palette(), m_content));
}

void PhaseLegend::setContent(const Content &content)
{
    if (content == m_content)
        return;
    m_content = content;
    setText(html(palette(), m_content));
}

QString PhaseLegend::html(const QPalette &palette, const Content &content)
{
    auto swatch = [](const QColor &colour, const QString &label) {
        return QStringLiteral("<span style='color:%1; font-size:large'>\u25a0</span>&nbsp;%2&nbsp;&nbsp; ")
            .arg(colour.name(), label.toHtmlEscaped());
    };
    QString text;
    if (content.phases) {
        for (const Phase phase : kAllPhases)
            text += swatch(PhaseColors::of(phase), phaseLabel(phase));
        text += swatch(PhaseColors::residual(), tr("Residual (not observed)"));
    }
    if (content.phases && (content.anyKind() || content.kindsPending))
        text += QStringLiteral("<br>");
    if (content.anyKind()) {
        text += tr("Workflows, by what is on the critical path:").toHtmlEscaped() + QStringLiteral("&nbsp; ");
        for (int k = 0; k < kWorkKindCount; ++k) {
            if (content.kinds[size_t(k)])
                text += swatch(WorkKindColors::of(WorkKind(k)), workKindLabel(WorkKind(k)));
        }
        // The off-path band: a faint sample of the first kind listed.
        const auto first = std::find(content.kinds.begin(), content.kinds.end(), true);
        const QColor faint
            = WorkKindColors::faint(WorkKind(first - content.kinds.begin()), palette.color(QPalette::Base));
        text += QStringLiteral("<span style='color:%1; font-size:large'>\u2584</span>&nbsp;%2&nbsp;&nbsp; ")
                    .arg(faint.name(), tr("faint band beneath: off the critical path").toHtmlEscaped());
    } else if (content.kindsPending) {
        text += tr("Workflows: finding each one's critical path\u2026").toHtmlEscaped()
            + QStringLiteral("&nbsp;&nbsp; ");
    }
    const SwimlaneColors colors = SwimlaneColors::fromPalette(palette);
    text += QStringLiteral("<span style='color:%1; font-size:large'>\u258c</span>&nbsp;%2")
                .arg(colors.exceedance.name(), tr("exceedance member").toHtmlEscaped());
    if (content.bookmarks)
        text += QStringLiteral("&nbsp;&nbsp; <span style='color:%1; font-size:large'>\u2590</span>&nbsp;%2")
                    .arg(colors.bookmark.name(), tr("note (right edge)").toHtmlEscaped());
    if (content.stalls)
        text += QStringLiteral("&nbsp;&nbsp; <span style='color:%1; font-size:large'>\u25a8</span>&nbsp;%2")
                    .arg(QColor(colors.text).name(), tr("stall (hatched; rule in the Streams dock)").toHtmlEscaped());
    return text;
}

QString PhaseLegend::html(const QPalette &palette)
{
    return html(palette, Content());
}

void PhaseLegend::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        setText(html(palette(), m_content));
    QLabel::changeEvent(event);
}
