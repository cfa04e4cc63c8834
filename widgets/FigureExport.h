#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QPainter;
class QWidget;

// What a figure is of and the coordinates it was measured in. Every export
// draws them above the figure (and writes them into the file's metadata),
// so a figure never leaves the tool without them.
struct FigureCaption
{
    QString title;           // "TTFT distribution"
    QStringList coordinates; // "client boundary", "TTFT (ms)", "p50–p99", "n = 2,000", "slice: …", "trace: …"

    QString line() const { return coordinates.join(QStringLiteral(" \u00b7 ")); }
};

// Paints the figure itself into a rectangle of `size` at (0, 0).
using FigurePainter = std::function<void(QPainter &painter, const QSize &size)>;

// One source of a figure: how big it is, how to paint it, what it shows.
struct FigureSource
{
    QString name;                      // menu text: "Swimlanes"
    std::function<QWidget *()> widget; // the view (for its size and as dialog parent)
    std::function<FigureCaption()> caption;
    FigurePainter paint; // empty: the widget as drawn (QWidget::render)
};

// Writes figures as PNG (2x pixel ratio), SVG (Qt Svg) or PDF (QPdfWriter):
// a caption band with the title and the coordinates, then the figure. The
// format follows the file's suffix. One implementation for every view.
namespace FigureExport {

enum class Format { Png, Svg, Pdf };

bool formatOf(const QString &path, Format *format);
QString fileFilter(); // "PNG image (*.png);;SVG (*.svg);;PDF (*.pdf)"

// The caption band's height for a figure `width` px wide.
int captionHeight(const FigureCaption &caption, int width);
void paintCaption(QPainter &painter, const FigureCaption &caption, int width);

bool write(const QString &path, const QSize &figureSize, const FigurePainter &paint, const FigureCaption &caption,
           QString *error);
bool write(const QString &path, const FigureSource &source, QString *error);

// The widget as it draws itself, children included.
FigurePainter widgetPainter(QWidget *widget);

// Asks for a file and writes the figure; reports a failure in a message box.
void exportWithDialog(const FigureSource &source, QWidget *parent);

// "Export Figure…" in `widget`'s context menu.
QAction *addContextAction(QWidget *widget, const FigureSource &source);

} // namespace FigureExport
