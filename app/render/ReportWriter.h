#pragma once

#include <QString>

struct ReportDocument;

// Writes a report in the format its file name asks for: .html (one
// self-contained file), .md (the Markdown plus its figures as SVG in
// "<name>_figures/" beside it) or .pdf. Shared by the GUI and tracelane-cli.
namespace ReportWriter {

enum class Format { Html, Markdown, Pdf };

bool formatOf(const QString &path, Format *format);
// The folder the Markdown's figures go to, beside `markdownPath`.
QString figureFolder(const QString &markdownPath);

bool write(const ReportDocument &document, const QString &path, QString *error);

} // namespace ReportWriter
