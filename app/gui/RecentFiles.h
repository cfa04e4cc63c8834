#pragma once

#include <QStringList>

// The last traces opened, newest first, kept in QSettings so they survive
// restarts. Missing files are dropped when the list is read; clickhouse://
// URLs are kept (whether the server answers is found out on opening).
class RecentFiles
{
public:
    static constexpr int kMaximum = 8;

    static QStringList load();
    static void add(const QString &path);
    static void remove(const QString &path);
    static void clear();

    // Pure list rule, for tests: `path` first, no duplicates, at most kMaximum.
    static QStringList withAdded(QStringList list, const QString &path);
};
