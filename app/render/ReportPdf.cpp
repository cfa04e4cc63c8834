#include "ReportPdf.h"

#include "report/ReportDocument.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>

namespace {

// Layout units are CSS pixels: 96 per inch, an A4 page is 794 x 1123.
constexpr int kDpi = 96;
constexpr double kMargin = 54.0;

QFont font(double pixels, bool bold = false, bool italic = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(int(std::lround(pixels)));
    f.setBold(bold);
    f.setItalic(italic);
    return f;
}

// Qt's SVG renderer turns <text> into outlines in a PDF, which nobody can
// search, copy or extract. The report's figures come from SvgCanvas (one
// <text> per line, escaped content, no nested elements), so their texts are
// taken out of the SVG and drawn as PDF text over the rest of the figure.
struct FigureText
{
    QPointF at;
    QString text;
    double size = 11.0;
    QString anchor;
    QColor colour;
    bool bold = false;
    double rotate = 0.0;
};

std::pair<QByteArray, std::vector<FigureText>> splitTexts(const QString &svg)
{
    std::vector<FigureText> texts;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement() || xml.name() != QStringLiteral("text"))
            continue;
        const QXmlStreamAttributes attributes = xml.attributes();
        FigureText text;
        text.at = QPointF(attributes.value(QStringLiteral("x")).toDouble(),
                          attributes.value(QStringLiteral("y")).toDouble());
        text.size = attributes.value(QStringLiteral("font-size")).toDouble();
        text.anchor = attributes.value(QStringLiteral("text-anchor")).toString();
        text.colour = QColor(attributes.value(QStringLiteral("fill")).toString());
        text.bold = attributes.value(QStringLiteral("font-weight")) == QStringLiteral("bold");
        static const QRegularExpression rotate(QStringLiteral("rotate\\(([-0-9.]+)"));
        const QRegularExpressionMatch match = rotate.match(attributes.value(QStringLiteral("transform")).toString());
        if (match.hasMatch())
            text.rotate = match.captured(1).toDouble();
        text.text = xml.readElementText();
        texts.push_back(std::move(text));
    }
    static const QRegularExpression element(QStringLiteral("<text [^>]*>[^<]*</text>"));
    QString shapes = svg;
    shapes.remove(element);
    return {shapes.toUtf8(), std::move(texts)};
}

void drawTexts(QPainter &painter, const std::vector<FigureText> &texts, const QPointF &origin, double scale)
{
    painter.save();
    painter.translate(origin);
    painter.scale(scale, scale);
    for (const FigureText &text : texts) {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(std::max(1, int(std::lround(text.size))));
        f.setBold(text.bold);
        const double width = QFontMetricsF(f).horizontalAdvance(text.text);
        const double shift = text.anchor == QStringLiteral("middle") ? -width / 2.0
            : text.anchor == QStringLiteral("end")                   ? -width
                                                                     : 0.0;
        painter.save();
        painter.translate(text.at);
        painter.rotate(text.rotate);
        painter.setFont(f);
        painter.setPen(text.colour.isValid() ? text.colour : QColor(Qt::black));
        painter.drawText(QPointF(shift, 0.0), text.text);
        painter.restore();
    }
    painter.restore();
}

class PdfLayout
{
public:
    PdfLayout(QPdfWriter &writer, QPainter &painter)
        : m_writer(writer)
        , m_painter(painter)
    {
        const QRect page = painter.viewport();
        m_width = double(page.width()) - 2 * kMargin;
        m_bottom = double(page.height()) - kMargin;
        m_y = kMargin;
    }

    double width() const { return m_width; }

    void newPage()
    {
        footer();
        m_writer.newPage();
        ++m_page;
        m_y = kMargin;
    }

    // Starts a new page unless `height` fits below the cursor (or the page is fresh).
    void ensure(double height)
    {
        if (m_y + height > m_bottom && m_y > kMargin + 1.0)
            newPage();
    }

    double textHeight(const QString &text, const QFont &f, double width) const
    {
        return QFontMetricsF(f).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
    }

    void text(const QString &text, const QFont &f, double indent = 0.0, const QColor &colour = QColor(0x22, 0x22, 0x22),
              double after = 6.0)
    {
        const double w = m_width - indent;
        const double h = textHeight(text, f, w);
        ensure(h);
        m_painter.setFont(f);
        m_painter.setPen(colour);
        m_painter.drawText(QRectF(kMargin + indent, m_y, w, h), Qt::TextWordWrap, text);
        m_y += h + after;
    }

    // Keeps a heading with at least `keep` px of what follows it.
    void heading(const QString &text, int level, double keep)
    {
        const QFont f = font(level <= 2 ? 16.0 : 13.0, true);
        const double h = textHeight(text, f, m_width);
        ensure(h + keep);
        m_y += level <= 2 ? 10.0 : 4.0;
        this->text(text, f, 0.0, QColor(0x11, 0x11, 0x11), 2.0);
        if (level <= 2) {
            m_painter.setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 0.8));
            m_painter.drawLine(QPointF(kMargin, m_y), QPointF(kMargin + m_width, m_y));
        }
        m_y += 6.0;
    }

    void facts(const std::vector<std::pair<QString, QString>> &facts)
    {
        const QFont label = font(10.5, true);
        const QFont value = font(10.5);
        const double labelWidth = 130.0;
        for (const auto &[name, text] : facts) {
            const double h
                = std::max(textHeight(name, label, labelWidth - 8), textHeight(text, value, m_width - labelWidth));
            ensure(h);
            m_painter.setPen(QColor(0x33, 0x33, 0x33));
            m_painter.setFont(label);
            m_painter.drawText(QRectF(kMargin, m_y, labelWidth - 8, h), Qt::TextWordWrap, name);
            m_painter.setFont(value);
            m_painter.drawText(QRectF(kMargin + labelWidth, m_y, m_width - labelWidth, h), Qt::TextWordWrap, text);
            m_y += h + 3.0;
        }
        m_y += 4.0;
    }

    void bullets(const QStringList &items)
    {
        const QFont f = font(10.5);
        for (const QString &item : items) {
            const double h = textHeight(item, f, m_width - 14);
            ensure(h);
            m_painter.setFont(f);
            m_painter.setPen(QColor(0x22, 0x22, 0x22));
            m_painter.drawText(QPointF(kMargin + 2, m_y + QFontMetricsF(f).ascent()), QStringLiteral("\u2022"));
            m_painter.drawText(QRectF(kMargin + 14, m_y, m_width - 14, h), Qt::TextWordWrap, item);
            m_y += h + 3.0;
        }
        m_y += 4.0;
    }

    void table(const ReportTable &table)
    {
        const QFont head = font(9.0, true);
        const QFont body = font(9.0);
        const qsizetype columns = table.header.size();
        if (columns == 0)
            return;
        // Natural widths, then shrunk proportionally to the page.
        std::vector<double> widths(size_t(columns), 0.0);
        const QFontMetricsF headMetrics(head);
        const QFontMetricsF bodyMetrics(body);
        for (qsizetype c = 0; c < columns; ++c) {
            widths[size_t(c)] = std::min(220.0, headMetrics.horizontalAdvance(table.header[c]) + 10.0);
            for (const QStringList &row : table.rows) {
                if (c < row.size())
                    widths[size_t(c)]
                        = std::max(widths[size_t(c)], std::min(260.0, bodyMetrics.horizontalAdvance(row[c]) + 10.0));
            }
        }
        double total = 0.0;
        for (const double w : widths)
            total += w;
        if (total > m_width) {
            for (double &w : widths)
                w *= m_width / total;
        }
        const auto rowHeight = [&](const QStringList &cells, const QFont &f) {
            double h = 0.0;
            for (qsizetype c = 0; c < columns && c < cells.size(); ++c)
                h = std::max(h, textHeight(cells[c], f, widths[size_t(c)] - 6.0));
            return h + 4.0;
        };
        const auto drawRow = [&](const QStringList &cells, const QFont &f, bool header) {
            const double h = rowHeight(cells, f);
            if (header)
                m_painter.fillRect(QRectF(kMargin, m_y, std::min(total, m_width), h), QColor(0xf0, 0xf0, 0xf0));
            double x = kMargin;
            m_painter.setFont(f);
            m_painter.setPen(QColor(0x22, 0x22, 0x22));
            for (qsizetype c = 0; c < columns && c < cells.size(); ++c) {
                const bool numeric = size_t(c) < table.numeric.size() && table.numeric[size_t(c)];
                m_painter.drawText(QRectF(x + 3, m_y + 2, widths[size_t(c)] - 6, h - 4),
                                   Qt::TextWordWrap | (numeric ? Qt::AlignRight : Qt::AlignLeft), cells[c]);
                x += widths[size_t(c)];
            }
            m_painter.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 0.6));
            m_painter.drawLine(QPointF(kMargin, m_y + h), QPointF(kMargin + std::min(total, m_width), m_y + h));
            m_y += h;
        };
        ensure(rowHeight(table.header, head) + (table.rows.empty() ? 0.0 : rowHeight(table.rows.front(), body)));
        drawRow(table.header, head, true);
        for (const QStringList &row : table.rows) {
            if (m_y + rowHeight(row, body) > m_bottom) {
                newPage();
                drawRow(table.header, head, true);
            }
            drawRow(row, body, false);
        }
        m_y += 8.0;
    }

    // The height a figure will take on the page (with its caption).
    double figureHeight(const ReportFigure &figure) const
    {
        QSvgRenderer renderer(figure.svg.toUtf8());
        const QSizeF natural = renderer.defaultSize();
        return natural.height() * std::min(1.0, m_width / std::max(1.0, natural.width())) + 40.0;
    }

    void figure(const ReportFigure &figure, int number)
    {
        const auto [shapes, texts] = splitTexts(figure.svg);
        QSvgRenderer renderer(shapes);
        if (!renderer.isValid())
            return text(QStringLiteral("(figure %1 could not be drawn)").arg(number), font(10.5, false, true));
        const QSizeF natural = renderer.defaultSize();
        const double scale = std::min(1.0, m_width / std::max(1.0, natural.width()));
        QSizeF size = natural * scale;
        const QString caption = QStringLiteral("Figure %1. %2. %3").arg(number).arg(figure.title, figure.caption);
        const QFont captionFont = font(9.0);
        const double captionHeight = textHeight(caption, captionFont, m_width);
        // A figure taller than a page is scaled to fit one.
        const double room = m_bottom - kMargin - captionHeight - 8.0;
        if (size.height() > room)
            size *= room / size.height();
        ensure(size.height() + captionHeight + 8.0);
        renderer.render(&m_painter, QRectF(QPointF(kMargin, m_y), size));
        drawTexts(m_painter, texts, QPointF(kMargin, m_y), size.width() / std::max(1.0, natural.width()));
        m_y += size.height() + 4.0;
        text(caption, captionFont, 0.0, QColor(0x44, 0x44, 0x44), 10.0);
    }

    void footer()
    {
        m_painter.setFont(font(8.0));
        m_painter.setPen(QColor(0x88, 0x88, 0x88));
        m_painter.drawText(QRectF(kMargin, m_bottom + 12.0, m_width, 14.0), Qt::AlignRight,
                           QStringLiteral("Tracelane \u00b7 page %1").arg(m_page));
    }

private:
    QPdfWriter &m_writer;
    QPainter &m_painter;
    double m_width = 0.0;
    double m_bottom = 0.0;
    double m_y = 0.0;
    int m_page = 1;
};

} // namespace

namespace ReportPdf {

bool write(const ReportDocument &document, const QString &path, QString *error)
{
    QPdfWriter writer(path);
    writer.setResolution(kDpi);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(document.title);
    writer.setCreator(QStringLiteral("Tracelane"));
    QPainter painter;
    if (!painter.begin(&writer)) {
        if (error)
            *error = QStringLiteral("could not write %1").arg(path);
        return false;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    PdfLayout layout(writer, painter);
    layout.text(document.title, font(21.0, true), 0.0, QColor(0x11, 0x11, 0x11), 2.0);
    layout.text(document.subtitle, font(10.5), 0.0, QColor(0x55, 0x55, 0x55), 8.0);
    int figures = 0;
    for (size_t i = 0; i < document.blocks.size(); ++i) {
        const ReportBlock &block = document.blocks[i];
        switch (block.kind) {
        case ReportBlock::Kind::Heading: {
            // A heading never ends a page; before a figure it moves with it.
            const ReportBlock *next = i + 1 < document.blocks.size() ? &document.blocks[i + 1] : nullptr;
            const double keep
                = next && next->kind == ReportBlock::Kind::Figure ? layout.figureHeight(next->figure) : 60.0;
            layout.heading(block.text, block.level, keep);
            break;
        }
        case ReportBlock::Kind::Paragraph:
            layout.text(block.text, font(10.5));
            break;
        case ReportBlock::Kind::Note:
            layout.text(block.text, font(10.0, false, true), 0.0, QColor(0x55, 0x55, 0x55));
            break;
        case ReportBlock::Kind::Facts:
            layout.facts(block.facts);
            break;
        case ReportBlock::Kind::Bullets:
            layout.bullets(block.items);
            break;
        case ReportBlock::Kind::Table:
            layout.table(block.table);
            break;
        case ReportBlock::Kind::Figure:
            layout.figure(block.figure, ++figures);
            break;
        }
    }
    layout.footer();
    painter.end();
    return true;
}

} // namespace ReportPdf
