#pragma once

#include <QString>

struct ReportDocument;

// The report as one self-contained HTML file: inline CSS and inline SVG, no
// script, no external reference of any kind, and a Content-Security-Policy
// that forbids scripts and network access should anything slip through.
// Every text is escaped (Markup::escapeXml).
namespace ReportHtml {

QString render(const ReportDocument &document);

} // namespace ReportHtml
