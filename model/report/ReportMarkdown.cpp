#include "ReportMarkdown.h"

#include "Markup.h"
#include "ReportDocument.h"

namespace ReportMarkdown {

Output render(const ReportDocument &document, const QString &figureFolder)
{
    Output output;
    QString &md = output.markdown;
    md += QStringLiteral("# ") + Markup::escapeMarkdownInline(document.title) + QStringLiteral("\n\n");
    md += QLatin1Char('_') + Markup::escapeMarkdownInline(document.subtitle) + QStringLiteral("_\n\n");
    int figureNumber = 0;
    for (const ReportBlock &block : document.blocks) {
        switch (block.kind) {
        case ReportBlock::Kind::Heading:
            md += QString(block.level, QLatin1Char('#')) + QLatin1Char(' ') + Markup::escapeMarkdownInline(block.text)
                + QStringLiteral("\n\n");
            break;
        case ReportBlock::Kind::Paragraph:
            md += Markup::escapeMarkdown(block.text) + QStringLiteral("\n\n");
            break;
        case ReportBlock::Kind::Note:
            md += QLatin1Char('_') + Markup::escapeMarkdownInline(block.text) + QStringLiteral("_\n\n");
            break;
        case ReportBlock::Kind::Facts:
            for (const auto &[label, value] : block.facts) {
                md += QStringLiteral("- **") + Markup::escapeMarkdownInline(label) + QStringLiteral(":** ")
                    + Markup::escapeMarkdownInline(value) + QLatin1Char('\n');
            }
            md += QLatin1Char('\n');
            break;
        case ReportBlock::Kind::Bullets:
            for (const QString &item : block.items)
                md += QStringLiteral("- ") + Markup::escapeMarkdownInline(item) + QLatin1Char('\n');
            md += QLatin1Char('\n');
            break;
        case ReportBlock::Kind::Table: {
            const ReportTable &table = block.table;
            QStringList header;
            QStringList rule;
            for (qsizetype c = 0; c < table.header.size(); ++c) {
                header.append(Markup::escapeMarkdownInline(table.header[c]));
                const bool numeric = size_t(c) < table.numeric.size() && table.numeric[size_t(c)];
                rule.append(numeric ? QStringLiteral("---:") : QStringLiteral("---"));
            }
            md += QStringLiteral("| ") + header.join(QStringLiteral(" | ")) + QStringLiteral(" |\n| ")
                + rule.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            for (const QStringList &row : table.rows) {
                QStringList cells;
                for (const QString &cell : row)
                    cells.append(Markup::escapeMarkdownInline(cell));
                md += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            }
            md += QLatin1Char('\n');
            break;
        }
        case ReportBlock::Kind::Figure: {
            ++figureNumber;
            // The file name comes from our own figure names, never from trace text.
            const QString file = QStringLiteral("%1/%2-%3.svg")
                                     .arg(figureFolder)
                                     .arg(figureNumber, 2, 10, QLatin1Char('0'))
                                     .arg(block.figure.name);
            output.files.emplace_back(file, block.figure.svg);
            md += QStringLiteral("![") + Markup::escapeMarkdownInline(block.figure.title) + QStringLiteral("](")
                + QString(file).replace(QLatin1Char(' '), QStringLiteral("%20")) + QStringLiteral(")\n\n");
            md += QStringLiteral("_Figure %1. ").arg(figureNumber) + Markup::escapeMarkdownInline(block.figure.title)
                + QStringLiteral("._ ") + Markup::escapeMarkdownInline(block.figure.caption) + QStringLiteral("\n\n");
            break;
        }
        }
    }
    return output;
}

} // namespace ReportMarkdown
