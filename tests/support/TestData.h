#pragma once

#include <QFile>
#include <QString>

// Paths of the test fixtures: tests/data/NAME, tests/data/realdata/NAME and
// files of the source tree (bundled examples).
namespace TestData {

inline QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/") + name;
}

inline QString realdata(const QString &name)
{
    return QStringLiteral(TRACELANE_REALDATA_DIR "/") + name;
}

inline QString source(const QString &name)
{
    return QStringLiteral(TRACELANE_SOURCE_DIR "/") + name;
}

// Writes the first `count` lines of the file at `path` to `out` (a capture
// that later grows into the whole file); false when either file fails.
inline bool firstLines(const QString &path, int count, const QString &out)
{
    QFile in(path);
    QFile part(out);
    if (!in.open(QIODevice::ReadOnly) || !part.open(QIODevice::WriteOnly))
        return false;
    for (int i = 0; i < count && !in.atEnd(); ++i) {
        if (part.write(in.readLine()) < 0)
            return false;
    }
    return true;
}

} // namespace TestData
