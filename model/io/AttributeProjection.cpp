#include "AttributeProjection.h"

bool AttributeProjection::keeps(std::string_view key) const
{
    if (all)
        return true;
    const QString name = QString::fromUtf8(key.data(), qsizetype(key.size()));
    for (const QString &kept : names) {
        if (name.compare(kept, Qt::CaseInsensitive) == 0)
            return true;
    }
    for (const QString &part : nameContains) {
        if (name.contains(part, Qt::CaseInsensitive))
            return true;
    }
    return false;
}
