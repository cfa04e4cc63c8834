#pragma once

#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

// A report as a sequence of blocks, independent of its output format: the
// same document becomes one self-contained HTML file (ReportHtml), Markdown
// with its figures written beside it (ReportMarkdown) or PDF (render/).
// Text is plain and unescaped here; each renderer escapes for its format.
struct ReportFigure
{
    QString name;    // file stem for Markdown ("03-class-cdfs")
    QString title;   // what it shows
    QString caption; // its coordinates: boundary, metric, percentile, n, slice, trace
    QString svg;     // a complete <svg> element (SvgCanvas: already escaped)
};

struct ReportTable
{
    QStringList header; // with units: "p95 (ms)"
    std::vector<QStringList> rows;
    std::vector<bool> numeric; // per column: right-aligned
};

struct ReportBlock
{
    enum class Kind { Heading, Paragraph, Facts, Bullets, Table, Figure, Note };

    Kind kind = Kind::Paragraph;
    int level = 2;                                  // Heading: 2 or 3
    QString text;                                   // Heading, Paragraph, Note
    std::vector<std::pair<QString, QString>> facts; // Facts: label, value
    QStringList items;                              // Bullets
    ReportTable table;
    ReportFigure figure;
};

struct ReportDocument
{
    QString title;
    QString subtitle; // trace, slice, date
    std::vector<ReportBlock> blocks;

    void heading(const QString &text, int level = 2);
    void paragraph(const QString &text);
    void note(const QString &text); // a remark beside a figure ("no workflows in this trace")
    void facts(std::vector<std::pair<QString, QString>> facts);
    void bullets(const QStringList &items);
    void table(ReportTable table);
    void figure(ReportFigure figure);

    std::vector<const ReportFigure *> figures() const;
};
