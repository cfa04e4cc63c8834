#pragma once

#include <QString>

// Escaping for text that leaves the tool inside markup. Trace text (span
// names, attribute values, request ids, file names) is untrusted: every
// string that reaches HTML, SVG or Markdown goes through one of these.
namespace Markup {

// For HTML/XML text and attribute values: & < > " ' become entities, and
// characters XML 1.0 forbids (C0 controls but tab/newline/return, lone
// surrogates, U+FFFE/U+FFFF) become U+FFFD, so the document stays well-formed.
QString escapeXml(const QString &text);

// For Markdown text: HTML is escaped as above (Markdown passes raw HTML
// through), and the characters Markdown gives meaning to are backslashed, so
// "*bold*", "[link](x)", "| cell" and a leading "#" stay literal. Newlines
// become spaces: a table cell or list item stays one line.
QString escapeMarkdown(const QString &text);
// The same for text that never starts a line (a table cell, text after a
// list marker or "## "): line-start markers ("# ", "- ", "1. ") stay as typed.
QString escapeMarkdownInline(const QString &text);

} // namespace Markup
