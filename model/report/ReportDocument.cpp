#include "ReportDocument.h"

void ReportDocument::heading(const QString &text, int level)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Heading;
    block.level = level;
    block.text = text;
    blocks.push_back(std::move(block));
}

void ReportDocument::paragraph(const QString &text)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Paragraph;
    block.text = text;
    blocks.push_back(std::move(block));
}

void ReportDocument::note(const QString &text)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Note;
    block.text = text;
    blocks.push_back(std::move(block));
}

void ReportDocument::facts(std::vector<std::pair<QString, QString>> facts)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Facts;
    block.facts = std::move(facts);
    blocks.push_back(std::move(block));
}

void ReportDocument::bullets(const QStringList &items)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Bullets;
    block.items = items;
    blocks.push_back(std::move(block));
}

void ReportDocument::table(ReportTable table)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Table;
    block.table = std::move(table);
    blocks.push_back(std::move(block));
}

void ReportDocument::figure(ReportFigure figure)
{
    if (figure.svg.isEmpty())
        return;
    ReportBlock block;
    block.kind = ReportBlock::Kind::Figure;
    block.figure = std::move(figure);
    blocks.push_back(std::move(block));
}

std::vector<const ReportFigure *> ReportDocument::figures() const
{
    std::vector<const ReportFigure *> result;
    for (const ReportBlock &block : blocks) {
        if (block.kind == ReportBlock::Kind::Figure)
            result.push_back(&block.figure);
    }
    return result;
}
