#pragma once

#include <QString>

struct ReportDocument;

// The report as a PDF through Qt's PDF writer (QPdfWriter): A4 pages, text
// as text (so it can be searched and extracted), figures drawn from their
// SVG as vectors (QSvgRenderer), tables that break across pages with their
// header repeated. Safe to call from a worker thread. Needs a
// QGuiApplication (fonts); tracelane-cli creates one for its report command.
namespace ReportPdf {

bool write(const ReportDocument &document, const QString &path, QString *error);

} // namespace ReportPdf
