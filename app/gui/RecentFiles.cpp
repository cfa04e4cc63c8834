#include "RecentFiles.h"

#include "remote/TraceSource.h"

#include <QFileInfo>
#include <QSettings>

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

QStringList RecentFiles::withAdded(QStringList list, const QString &path)
{
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaximum)
        list.removeLast();
    return list;
}

QStringList RecentFiles::load()
{
    QStringList files = QSettings().value(kKey).toStringList();
    files.erase(
        std::remove_if(files.begin(), files.end(),
                       [](const QString &path) { return !TraceSource::isUrl(path) && !QFileInfo::exists(path); }),
        files.end());
    return files;
}

void RecentFiles::add(const QString &path)
{
    QSettings().setValue(kKey, withAdded(load(), TraceSource::canonical(path)));
}

void RecentFiles::remove(const QString &path)
{
    QStringList files = load();
    files.removeAll(path);
    QSettings().setValue(kKey, files);
}

void RecentFiles::clear()
{
    QSettings().remove(kKey);
}
