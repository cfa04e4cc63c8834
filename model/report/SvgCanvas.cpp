#include "SvgCanvas.h"

#include "Markup.h"

namespace {

QString n(double value)
{
    // Two decimals, trailing zeros dropped: "12", "12.5", "12.25".
    QString text = QString::number(value, 'f', 2);
    while (text.contains(QLatin1Char('.')) && (text.endsWith(QLatin1Char('0')) || text.endsWith(QLatin1Char('.'))))
        text.chop(1);
    return text == QStringLiteral("-0") ? QStringLiteral("0") : text;
}

QString attribute(const char *name, const QString &value)
{
    return QStringLiteral(" %1=\"%2\"").arg(QLatin1String(name), Markup::escapeXml(value));
}

} // namespace

SvgCanvas::SvgCanvas(double width, double height, const QString &title)
    : m_width(width)
    , m_height(height)
    , m_title(title)
{ }

void SvgCanvas::rect(double x, double y, double w, double h, const QString &fill, const QString &tooltip,
                     const QString &stroke)
{
    m_body += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\"")
                  .arg(n(x), n(y), n(qMax(0.0, w)), n(qMax(0.0, h)));
    m_body += attribute("fill", fill);
    if (!stroke.isEmpty())
        m_body += attribute("stroke", stroke);
    if (tooltip.isEmpty()) {
        m_body += QStringLiteral("/>\n");
    } else {
        m_body += QStringLiteral("><title>") + Markup::escapeXml(tooltip) + QStringLiteral("</title></rect>\n");
    }
}

void SvgCanvas::line(double x1, double y1, double x2, double y2, const QString &stroke, double strokeWidth, bool dashed)
{
    m_body += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\" stroke-width=\"%5\"")
                  .arg(n(x1), n(y1), n(x2), n(y2), n(strokeWidth));
    m_body += attribute("stroke", stroke);
    if (dashed)
        m_body += QStringLiteral(" stroke-dasharray=\"4 3\"");
    m_body += QStringLiteral("/>\n");
}

void SvgCanvas::polyline(const std::vector<std::pair<double, double>> &points, const QString &stroke,
                         double strokeWidth)
{
    if (points.empty())
        return;
    QString coordinates;
    coordinates.reserve(qsizetype(points.size()) * 14);
    for (const auto &[x, y] : points) {
        coordinates += n(x);
        coordinates += QLatin1Char(',');
        coordinates += n(y);
        coordinates += QLatin1Char(' ');
    }
    coordinates.chop(1);
    m_body
        += QStringLiteral("<polyline fill=\"none\" stroke-width=\"%1\" points=\"%2\"").arg(n(strokeWidth), coordinates);
    m_body += attribute("stroke", stroke);
    m_body += QStringLiteral("/>\n");
}

void SvgCanvas::text(double x, double y, const QString &text, const TextStyle &style)
{
    static const char *anchors[] = {"start", "middle", "end"};
    m_body += QStringLiteral("<text x=\"%1\" y=\"%2\" font-size=\"%3\" text-anchor=\"%4\"")
                  .arg(n(x), n(y), n(style.size), QLatin1String(anchors[int(style.anchor)]));
    m_body += attribute("fill", style.fill);
    if (style.bold)
        m_body += QStringLiteral(" font-weight=\"bold\"");
    if (style.rotate != 0.0)
        m_body += QStringLiteral(" transform=\"rotate(%1 %2 %3)\"").arg(n(style.rotate), n(x), n(y));
    m_body += QLatin1Char('>') + Markup::escapeXml(text) + QStringLiteral("</text>\n");
}

double SvgCanvas::textWidth(const QString &text, double size)
{
    return double(text.size()) * size * 0.56;
}

QString SvgCanvas::elide(const QString &text, double width, double size)
{
    if (textWidth(text, size) <= width)
        return text;
    const qsizetype keep = qMax<qsizetype>(1, qsizetype(width / (size * 0.56)) - 1);
    return text.left(keep) + QChar(0x2026);
}

QString SvgCanvas::svg() const
{
    return QStringLiteral(
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%1\" height=\"%2\" "
               "viewBox=\"0 0 %1 %2\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" role=\"img\">\n"
               "<title>%3</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n")
               .arg(n(m_width), n(m_height), Markup::escapeXml(m_title))
        + m_body + QStringLiteral("</svg>\n");
}
