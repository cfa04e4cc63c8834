#pragma once

#include <QHostAddress>
#include <QString>

// Where a receiver listens, as a user writes it: "127.0.0.1:4318",
// "[::1]:4318", ":4318" or "4318" (loopback), "localhost:4318". False with a
// reason in `error` for a port that is not 0-65535 or a host that is not an
// IP address. Shared by `tracelane-cli receive` and the window's --listen.
bool parseListenAddress(const QString &text, QHostAddress *address, quint16 *port, QString *error);
