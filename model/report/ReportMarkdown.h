#pragma once

#include <QString>

#include <utility>
#include <vector>

struct ReportDocument;

// The report as Markdown with its figures as SVG files beside it: the
// Markdown links them as `FOLDER/NN-name.svg`. Every text is escaped
// (Markup::escapeMarkdown), so trace text stays text in any renderer.
namespace ReportMarkdown {

struct Output
{
    QString markdown;
    std::vector<std::pair<QString, QString>> files; // relative path, SVG content
};

// `figureFolder` is the folder name the figures go to, relative to the Markdown file.
Output render(const ReportDocument &document, const QString &figureFolder);

} // namespace ReportMarkdown
