#include "FigureExport.h"

#include "InSightWork.h"
#include "report/Markup.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QMessageBox>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

namespace {

constexpr int kPadding = 8;

QFont titleFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(14);
    font.setBold(true);
    return font;
}

QFont coordinatesFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(11);
    return font;
}

QRect textRect(const QFont &font, const QString &text, int width)
{
    return QFontMetrics(font).boundingRect(QRect(0, 0, width, 10'000), Qt::TextWordWrap, text);
}

// Caption, then the figure below it, on any paint device.
void paintFigure(QPainter &painter, const QSize &figureSize, const FigurePainter &paint, const FigureCaption &caption)
{
    const int band = FigureExport::captionHeight(caption, figureSize.width());
    painter.fillRect(QRect(0, 0, figureSize.width(), figureSize.height() + band), Qt::white);
    FigureExport::paintCaption(painter, caption, figureSize.width());
    painter.save();
    painter.translate(0, band);
    painter.setClipRect(QRect(QPoint(0, 0), figureSize));
    paint(painter, figureSize);
    painter.restore();
}

} // namespace

namespace FigureExport {

bool formatOf(const QString &path, Format *format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("png"))
        *format = Format::Png;
    else if (suffix == QStringLiteral("svg"))
        *format = Format::Svg;
    else if (suffix == QStringLiteral("pdf"))
        *format = Format::Pdf;
    else
        return false;
    return true;
}

QString fileFilter()
{
    return QObject::tr("PNG image, 2\u00d7 (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

int captionHeight(const FigureCaption &caption, int width)
{
    const int inner = qMax(50, width - 2 * kPadding);
    return kPadding + textRect(titleFont(), caption.title, inner).height() + 2
        + textRect(coordinatesFont(), caption.line(), inner).height() + kPadding;
}

void paintCaption(QPainter &painter, const FigureCaption &caption, int width)
{
    const int inner = qMax(50, width - 2 * kPadding);
    painter.save();
    painter.setPen(QColor(0x22, 0x22, 0x22));
    painter.setFont(titleFont());
    const QRect title = textRect(titleFont(), caption.title, inner).translated(kPadding, kPadding);
    painter.drawText(title, Qt::TextWordWrap, caption.title);
    painter.setFont(coordinatesFont());
    painter.setPen(QColor(0x44, 0x44, 0x44));
    const QRect line = textRect(coordinatesFont(), caption.line(), inner).translated(kPadding, title.bottom() + 3);
    painter.drawText(line, Qt::TextWordWrap, caption.line());
    painter.restore();
}

bool write(const QString &path, const QSize &figureSize, const FigurePainter &paint, const FigureCaption &caption,
           QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    Format format = Format::Png;
    if (!formatOf(path, &format))
        return fail(QObject::tr("%1: choose a .png, .svg or .pdf file").arg(path));
    if (figureSize.isEmpty())
        return fail(QObject::tr("The view has no size to export."));
    const QSize total(figureSize.width(), figureSize.height() + captionHeight(caption, figureSize.width()));
    switch (format) {
    case Format::Png: {
        QImage image(total * 2, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(2.0);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            paintFigure(painter, figureSize, paint, caption);
        }
        image.setText(QStringLiteral("Title"), caption.title);
        image.setText(QStringLiteral("Description"), caption.line());
        if (!image.save(path, "PNG"))
            return fail(QObject::tr("Could not write %1.").arg(path));
        return true;
    }
    case Format::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(total);
        generator.setViewBox(QRect(QPoint(0, 0), total));
        // Qt 6.4 writes <title> and <desc> without escaping them (the drawn
        // text it escapes): trace text there could open elements.
        generator.setTitle(Markup::escapeXml(caption.title));
        generator.setDescription(Markup::escapeXml(caption.line()));
        QPainter painter;
        if (!painter.begin(&generator))
            return fail(QObject::tr("Could not write %1.").arg(path));
        paintFigure(painter, figureSize, paint, caption);
        painter.end();
        return QFileInfo(path).size() > 0 || fail(QObject::tr("Could not write %1.").arg(path));
    }
    case Format::Pdf: {
        QPdfWriter writer(path);
        // One point per view pixel: the page is the figure, no margins.
        writer.setResolution(72);
        writer.setPageSize(QPageSize(QSizeF(total), QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setTitle(caption.title);
        writer.setCreator(QStringLiteral("Tracelane"));
        QPainter painter;
        if (!painter.begin(&writer))
            return fail(QObject::tr("Could not write %1.").arg(path));
        paintFigure(painter, figureSize, paint, caption);
        painter.end();
        return true;
    }
    }
    return false;
}

FigurePainter widgetPainter(QWidget *widget)
{
    return [widget](QPainter &painter, const QSize &) {
        widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    };
}

bool write(const QString &path, const FigureSource &source, QString *error)
{
    QWidget *widget = source.widget();
    if (!widget) {
        if (error)
            *error = QObject::tr("%1 is not shown.").arg(source.name);
        return false;
    }
    // A panel out of sight since a live refresh draws what it kept first.
    InSightWork::flushAround(widget);
    const FigurePainter paint = source.paint ? source.paint : widgetPainter(widget);
    return write(path, widget->size(), paint, source.caption(), error);
}

void exportWithDialog(const FigureSource &source, QWidget *parent)
{
    // Started before the dialog: background work kept out of sight is in by
    // the time a file is chosen.
    if (QWidget *widget = source.widget())
        InSightWork::flushAround(widget);
    QString selected;
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export %1").arg(source.name), QString(),
                                                fileFilter(), &selected);
    if (path.isEmpty())
        return;
    Format format = Format::Png;
    if (!formatOf(path, &format)) {
        // No suffix typed: take the chosen filter's.
        path += selected.contains(QStringLiteral("*.svg")) ? QStringLiteral(".svg")
            : selected.contains(QStringLiteral("*.pdf"))   ? QStringLiteral(".pdf")
                                                           : QStringLiteral(".png");
    }
    QString error;
    if (!write(path, source, &error))
        QMessageBox::warning(parent, QObject::tr("Export %1").arg(source.name), error);
}

QAction *addContextAction(QWidget *widget, const FigureSource &source)
{
    auto *action = new QAction(QObject::tr("Export Figure\u2026"), widget);
    QObject::connect(action, &QAction::triggered, widget, [source, widget] { exportWithDialog(source, widget); });
    widget->addAction(action);
    widget->setContextMenuPolicy(Qt::ActionsContextMenu);
    return action;
}

} // namespace FigureExport
