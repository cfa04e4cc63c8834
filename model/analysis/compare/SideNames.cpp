#include "SideNames.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace SideNames {

namespace {

QStringList components(const QString &path)
{
    const QString clean = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    return clean.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

// The file name with the folder `depth` levels up; the folders between them
// (equal on both sides) become "…".
QString tail(const QStringList &parts, qsizetype depth)
{
    const QString &file = parts.last();
    if (depth <= 0)
        return file;
    if (depth >= parts.size()) // the whole path: the other side lies deeper
        return QLatin1Char('/') + parts.join(QLatin1Char('/'));
    const QString &folder = parts[parts.size() - 1 - depth];
    if (depth == 1)
        return folder + QLatin1Char('/') + file;
    return folder + QStringLiteral("/\u2026/") + file;
}

} // namespace

std::pair<QString, QString> distinguish(const QString &baselinePath, const QString &candidatePath)
{
    const QStringList base = components(baselinePath);
    const QStringList cand = components(candidatePath);
    if (base.isEmpty() || cand.isEmpty())
        return {QFileInfo(baselinePath).fileName(), QFileInfo(candidatePath).fileName()};
    if (base.last() != cand.last() || base == cand)
        return {base.last(), cand.last()};
    // The first folder, counted up from the file, where the paths part.
    qsizetype depth = 1;
    while (depth < base.size() && depth < cand.size() && base[base.size() - 1 - depth] == cand[cand.size() - 1 - depth])
        ++depth;
    return {tail(base, depth), tail(cand, depth)};
}

} // namespace SideNames
