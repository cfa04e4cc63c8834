#pragma once

#include "Session.h"

#include <QByteArray>
#include <QString>

// A session as a versioned JSON document (`*.tracelane`). Trace paths are
// written relative to the session file's folder and read back absolute, so
// a folder of traces and sessions can move as a whole. A newer version is
// refused with a message that says so (RecordJson::checkVersion).
namespace SessionJson {

inline constexpr int kVersion = 1;
inline constexpr const char *kFormat = "tracelane.session";

// `folder`: where the session file is (or will be).
QByteArray write(const Session &session, const QString &folder);
bool read(const QByteArray &bytes, const QString &folder, Session *session, QString *error);

// True when `path` holds a session (by its content, not its name).
bool isSession(const QString &path);

} // namespace SessionJson
