#pragma once

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

// The process's threads as Linux sees them (/proc/self/task): name and nice,
// to check which threads run at a background priority.
namespace ThreadNice {

struct Thread
{
    QString name; // at most 15 characters (QThread's objectName, cut)
    int nice = 0;
};

// One /proc/.../stat file: the name in brackets, then state (field 3) ...
// nice (field 19). Nothing when it cannot be read (the thread ended).
inline std::optional<Thread> readStat(const QString &path)
{
    QFile stat(path);
    if (!stat.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QString text = QString::fromUtf8(stat.readAll());
    const qsizetype open = text.indexOf(QLatin1Char('('));
    const qsizetype close = text.lastIndexOf(QLatin1Char(')'));
    if (open < 0 || close < open)
        return std::nullopt;
    const QStringList fields = text.mid(close + 2).split(QLatin1Char(' '));
    if (fields.size() < 17)
        return std::nullopt;
    return Thread{text.mid(open + 1, close - open - 1), fields[16].toInt()};
}

inline std::vector<Thread> threads()
{
    std::vector<Thread> result;
    const QStringList tasks = QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &task : tasks) {
        if (const auto thread = readStat(QStringLiteral("/proc/self/task/%1/stat").arg(task)))
            result.push_back(*thread);
    }
    return result;
}

// The nice the process was started at (its main thread's).
inline int processNice()
{
    const auto main = readStat(QStringLiteral("/proc/self/stat"));
    return main ? main->nice : 0;
}

inline int niceOf(const QString &name)
{
    for (const Thread &thread : threads()) {
        if (thread.name == name)
            return thread.nice;
    }
    return -100; // no such thread
}

inline int countAtNice(int nice)
{
    int count = 0;
    for (const Thread &thread : threads())
        count += thread.nice == nice ? 1 : 0;
    return count;
}

} // namespace ThreadNice
