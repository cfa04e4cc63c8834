#include "ReportWriter.h"

#include "ReportPdf.h"
#include "report/ReportDocument.h"
#include "report/ReportHtml.h"
#include "report/ReportMarkdown.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace {

bool writeText(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

namespace ReportWriter {

bool formatOf(const QString &path, Format *format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("html") || suffix == QStringLiteral("htm"))
        *format = Format::Html;
    else if (suffix == QStringLiteral("md") || suffix == QStringLiteral("markdown"))
        *format = Format::Markdown;
    else if (suffix == QStringLiteral("pdf"))
        *format = Format::Pdf;
    else
        return false;
    return true;
}

QString figureFolder(const QString &markdownPath)
{
    return QFileInfo(markdownPath).completeBaseName() + QStringLiteral("_figures");
}

bool write(const ReportDocument &document, const QString &path, QString *error)
{
    Format format = Format::Html;
    if (!formatOf(path, &format)) {
        if (error)
            *error = QStringLiteral("%1: the report is written as .html, .pdf or .md").arg(path);
        return false;
    }
    switch (format) {
    case Format::Html:
        return writeText(path, ReportHtml::render(document), error);
    case Format::Pdf:
        return ReportPdf::write(document, path, error);
    case Format::Markdown: {
        const QString folder = figureFolder(path);
        const ReportMarkdown::Output output = ReportMarkdown::render(document, folder);
        const QDir base = QFileInfo(path).absoluteDir();
        if (!output.files.empty() && !base.mkpath(folder)) {
            if (error)
                *error = QStringLiteral("could not create %1").arg(base.filePath(folder));
            return false;
        }
        for (const auto &[file, svg] : output.files) {
            if (!writeText(base.filePath(file), svg, error))
                return false;
        }
        return writeText(path, output.markdown, error);
    }
    }
    return false;
}

} // namespace ReportWriter
