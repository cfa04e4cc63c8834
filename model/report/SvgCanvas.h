#pragma once

#include <QString>

#include <utility>
#include <vector>

// A small SVG 1.1 writer for the report's figures: shapes and text in user
// units (CSS px), one self-contained <svg> element that needs no stylesheet,
// script or network. Every text and attribute value is escaped
// (Markup::escapeXml), so untrusted trace text can only ever be text.
enum class SvgAnchor { Start, Middle, End };

struct SvgTextStyle
{
    double size = 11.0;
    SvgAnchor anchor = SvgAnchor::Start;
    QString fill = QStringLiteral("#222222");
    bool bold = false;
    double rotate = 0.0; // degrees, about the anchor point
};

class SvgCanvas
{
public:
    using Anchor = SvgAnchor;
    using TextStyle = SvgTextStyle;

    // `title` becomes the figure's <title> (its accessible name and tooltip).
    SvgCanvas(double width, double height, const QString &title);

    double width() const { return m_width; }
    double height() const { return m_height; }

    void rect(double x, double y, double w, double h, const QString &fill, const QString &tooltip = {},
              const QString &stroke = {});
    void line(double x1, double y1, double x2, double y2, const QString &stroke, double strokeWidth = 1.0,
              bool dashed = false);
    void polyline(const std::vector<std::pair<double, double>> &points, const QString &stroke,
                  double strokeWidth = 1.5);
    void text(double x, double y, const QString &text, const TextStyle &style);
    void text(double x, double y, const QString &text) { this->text(x, y, text, TextStyle{}); }

    // Width a text of `size` px is assumed to take (average glyph advance),
    // for laying out labels without a font engine.
    static double textWidth(const QString &text, double size);
    // Shortens `text` with an ellipsis to fit `width` px at `size`.
    static QString elide(const QString &text, double width, double size);

    // The finished <svg> element.
    QString svg() const;

private:
    double m_width = 0.0;
    double m_height = 0.0;
    QString m_title;
    QString m_body;
};
