#pragma once

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

} // namespace TestData
