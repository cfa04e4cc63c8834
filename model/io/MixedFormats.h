#pragma once

#include "TraceFormat.h"

#include <QString>

#include <map>
#include <string_view>

// Tells a record written in another format (an OTLP line in a seed JSONL
// file) apart from a broken record of the file's own format, so the rejected
// record says what it is, and sums the foreign ones up in one notice: the
// file mixes formats, and what was kept.
class MixedFormats
{
public:
    explicit MixedFormats(TraceFormat own)
        : m_own(own)
    { }

    // The reason to reject `record` with when it is a record of another
    // known format (and counts it); empty otherwise.
    QString foreignReason(std::string_view record);
    void merge(const MixedFormats &other);
    bool any() const { return !m_counts.empty(); }
    // "the file mixes formats: 3 OTLP/JSON and 5 Mooncake JSONL records
    // were rejected; only seed JSONL records are read"; empty when none.
    QString summary() const;

private:
    TraceFormat m_own;
    std::map<TraceFormat, qint64> m_counts;
};
