#include "ReportHtml.h"

#include "Markup.h"
#include "ReportDocument.h"

namespace {

QString e(const QString &text)
{
    return Markup::escapeXml(text);
}

const char *kStyle = R"(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; max-width: 760px;
       margin: 24px auto; padding: 0 16px; font-size: 14px; line-height: 1.45; }
h1 { font-size: 22px; margin-bottom: 2px; }
h2 { font-size: 17px; border-bottom: 1px solid #ccc; padding-bottom: 2px; margin-top: 26px; }
h3 { font-size: 15px; margin-bottom: 4px; }
.subtitle { color: #555; margin-top: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 8px 0; }
dl.facts dt { font-weight: bold; color: #333; }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 14px 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 12px; color: #444; }
figcaption b { color: #222; }
p.note { color: #555; font-style: italic; }
)";

} // namespace

namespace ReportHtml {

QString render(const ReportDocument &document)
{
    QString html;
    html.reserve(qsizetype{64} * 1024);
    html += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                           "style-src 'unsafe-inline'; img-src data:\">\n"
                           "<meta name=\"generator\" content=\"Tracelane\">\n<title>");
    html += e(document.title);
    html += QStringLiteral("</title>\n<style>");
    html += QLatin1String(kStyle);
    html += QStringLiteral("</style>\n</head>\n<body>\n<h1>");
    html += e(document.title);
    html += QStringLiteral("</h1>\n<p class=\"subtitle\">");
    html += e(document.subtitle);
    html += QStringLiteral("</p>\n");
    int figureNumber = 0;
    for (const ReportBlock &block : document.blocks) {
        switch (block.kind) {
        case ReportBlock::Kind::Heading:
            html += QStringLiteral("<h%1>%2</h%1>\n").arg(block.level).arg(e(block.text));
            break;
        case ReportBlock::Kind::Paragraph:
            html += QStringLiteral("<p>%1</p>\n").arg(e(block.text));
            break;
        case ReportBlock::Kind::Note:
            html += QStringLiteral("<p class=\"note\">%1</p>\n").arg(e(block.text));
            break;
        case ReportBlock::Kind::Facts:
            html += QStringLiteral("<dl class=\"facts\">\n");
            for (const auto &[label, value] : block.facts)
                html += QStringLiteral("<dt>%1</dt><dd>%2</dd>\n").arg(e(label), e(value));
            html += QStringLiteral("</dl>\n");
            break;
        case ReportBlock::Kind::Bullets:
            html += QStringLiteral("<ul>\n");
            for (const QString &item : block.items)
                html += QStringLiteral("<li>%1</li>\n").arg(e(item));
            html += QStringLiteral("</ul>\n");
            break;
        case ReportBlock::Kind::Table: {
            const ReportTable &table = block.table;
            const auto cellClass = [&table](qsizetype column) {
                return size_t(column) < table.numeric.size() && table.numeric[size_t(column)]
                    ? QStringLiteral(" class=\"num\"")
                    : QString();
            };
            html += QStringLiteral("<table>\n<thead><tr>");
            for (qsizetype c = 0; c < table.header.size(); ++c)
                html += QStringLiteral("<th%1>%2</th>").arg(cellClass(c), e(table.header[c]));
            html += QStringLiteral("</tr></thead>\n<tbody>\n");
            for (const QStringList &row : table.rows) {
                html += QStringLiteral("<tr>");
                for (qsizetype c = 0; c < row.size(); ++c)
                    html += QStringLiteral("<td%1>%2</td>").arg(cellClass(c), e(row[c]));
                html += QStringLiteral("</tr>\n");
            }
            html += QStringLiteral("</tbody>\n</table>\n");
            break;
        }
        case ReportBlock::Kind::Figure:
            ++figureNumber;
            html += QStringLiteral("<figure>\n");
            html += block.figure.svg; // SvgCanvas escaped every text and attribute
            html += QStringLiteral("<figcaption><b>Figure %1. %2.</b> %3</figcaption>\n</figure>\n")
                        .arg(figureNumber)
                        .arg(e(block.figure.title), e(block.figure.caption));
            break;
        }
    }
    html += QStringLiteral("</body>\n</html>\n");
    return html;
}

} // namespace ReportHtml
