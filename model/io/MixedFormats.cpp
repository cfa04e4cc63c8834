#include "MixedFormats.h"

#include <QStringList>

QString MixedFormats::foreignReason(std::string_view record)
{
    if (record.size() > size_t{16} * 1024 * 1024)
        return {};
    const QByteArray text(record.data(), qsizetype(record.size()));
    const TraceFormat format = detectTraceFormat(text);
    // Seed JSONL is detectTraceFormat's answer for any object; only a record
    // with the seed's own fields counts as one.
    if (format == TraceFormat::SeedJsonl && !(text.contains("\"request_id\"") && text.contains("_ms\"")))
        return {};
    if (format == TraceFormat::Unknown || format == m_own
        || (format == TraceFormat::SeedJsonl && m_own == TraceFormat::SeedJsonArray)) {
        return {};
    }
    ++m_counts[format];
    return QStringLiteral("written as %1, not %2: the file mixes formats, and only %2 records are read")
        .arg(traceFormatName(format), traceFormatName(m_own));
}

void MixedFormats::merge(const MixedFormats &other)
{
    for (const auto &[format, count] : other.m_counts)
        m_counts[format] += count;
}

QString MixedFormats::summary() const
{
    if (m_counts.empty())
        return {};
    QStringList parts;
    qint64 total = 0;
    for (const auto &[format, count] : m_counts) {
        parts << QStringLiteral("%1 %2").arg(count).arg(traceFormatName(format));
        total += count;
    }
    const QString list = parts.size() == 1
        ? parts.front()
        : parts.mid(0, parts.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + parts.back();
    return QStringLiteral("the file mixes formats: %1 %2 rejected; only %3 records are read (split the file to "
                          "load the others)")
        .arg(list, total == 1 ? QStringLiteral("record was") : QStringLiteral("records were"), traceFormatName(m_own));
}
