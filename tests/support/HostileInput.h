#pragma once

// Helpers of the hostile-input tests (tst_hostileinput, tst_inputfiles).

#include "io/LoadResult.h"
#include "io/TraceFileLoader.h"

#include <QFile>
#include <QString>
#include <QTest>

namespace HostileInput {

// A reproducer of the fuzz campaign in tests/data/fuzz-regressions/.
inline QString regression(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/fuzz-regressions/") + name;
}

inline LoadResult load(const QString &path)
{
    LoadOptions options;
    options.threads = 2;
    return TraceFileLoader::load(path, options);
}

// "line|field|reason start" of a rejected record, for compact tables.
inline QString brief(const RejectedRecord &rejected)
{
    return QStringLiteral("%1|%2|%3").arg(rejected.line).arg(rejected.field, rejected.reason);
}

inline bool hasNotice(const TraceStore &store, const QString &text)
{
    for (const auto &notice : store.notices) {
        if (notice.message.contains(text))
            return true;
    }
    return false;
}

inline void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace HostileInput
