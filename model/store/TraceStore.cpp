#include "TraceStore.h"

namespace {

QString location(const QString &file, qint64 line)
{
    if (file.isEmpty())
        return line > 0 ? QStringLiteral("line %1").arg(line) : QString();
    return line > 0 ? file % QLatin1Char(':') % QString::number(line) : file;
}

} // namespace

QString RejectedRecord::toString() const
{
    QStringList parts;
    const QString where = location(file, line);
    if (!where.isEmpty())
        parts << where;
    if (!spanId.isEmpty()) {
        if (!requestId.isEmpty())
            parts << QStringLiteral("trace %1").arg(requestId);
        parts << QStringLiteral("span %1").arg(spanId);
    } else if (!requestId.isEmpty()) {
        parts << QStringLiteral("request %1").arg(requestId);
    }
    if (!field.isEmpty())
        parts << QStringLiteral("field '%1'").arg(field);
    parts << reason;
    return parts.join(QStringLiteral(": "));
}

QString LoadNotice::toString() const
{
    const QString where = location(file, line);
    return where.isEmpty() ? message : where % QStringLiteral(": ") % message;
}
