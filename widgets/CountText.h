#pragma once

#include <QLocale>
#include <QString>

// "1 request", "2,000 requests": a count in the user's locale with the noun
// agreeing with it. (Qt's %n only picks a plural through a translation file,
// which an English build does not load, so "%n lane(s)" would print "1 lane(s)".)
namespace CountText {

inline QString of(qint64 n, const QString &one, const QString &many)
{
    return QLocale().toString(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

} // namespace CountText
