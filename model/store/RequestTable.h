#pragma once

#include "AttributeColumn.h"
#include "ColumnMemory.h"
#include "Phase.h"
#include "Stamp.h"
#include "StringArena.h"
#include "TokenTimeline.h"

#include <QString>

#include <array>
#include <type_traits>
#include <vector>

// All flat requests of a trace, column-wise. A row is one request; every
// column has rowCount() entries. Times are qint64 ns (kNoTime when not
// observed); token counts are whole numbers (0 when the source did not say).
class RequestTable
{
public:
    qsizetype rowCount() const { return m_ids.size(); }
    bool isEmpty() const { return m_ids.isEmpty(); }

    std::string_view id(qsizetype row) const { return m_ids.view(row); }
    QString idText(qsizetype row) const
    {
        const auto text = id(row);
        return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
    }
    qint32 promptTokens(qsizetype row) const { return m_promptTokens[static_cast<size_t>(row)]; }
    qint32 outputTokens(qsizetype row) const { return m_outputTokens[static_cast<size_t>(row)]; }
    qint64 stamp(qsizetype row, Stamp which) const
    {
        return m_stamps[static_cast<size_t>(which)][static_cast<size_t>(row)];
    }
    const ColumnVector<qint64> &stampColumn(Stamp which) const { return m_stamps[static_cast<size_t>(which)]; }
    // Source line of the record (1-based), for linking a row back to its file.
    qint64 sourceLine(qsizetype row) const { return m_sourceLines[static_cast<size_t>(row)]; }

    // Phase duration in ns, or kNoTime when either bounding stamp is missing.
    qint64 phaseNs(qsizetype row, Phase phase) const
    {
        const qint64 begin = stamp(row, phaseBegin(phase));
        const qint64 end = stamp(row, phaseEnd(phase));
        return begin == kNoTime || end == kNoTime ? kNoTime : end - begin;
    }

    const std::vector<AttributeColumn> &attributes() const { return m_attributes; }
    const AttributeColumn *attribute(const QString &name) const
    {
        for (const auto &column : m_attributes) {
            if (column.name() == name)
                return &column;
        }
        return nullptr;
    }
    qsizetype attributeIndex(const QString &name) const
    {
        for (size_t i = 0; i < m_attributes.size(); ++i) {
            if (m_attributes[i].name() == name)
                return static_cast<qsizetype>(i);
        }
        return -1;
    }

    const TokenTimeline &serverTokens() const { return m_serverTokens; }
    const TokenTimeline &clientTokens() const { return m_clientTokens; }

    // Building ------------------------------------------------------------
    struct Row
    {
        std::string_view id;
        qint32 promptTokens = 0;
        qint32 outputTokens = 0;
        std::array<qint64, kStampCount> stamps{};
        qint64 sourceLine = 0;
    };

    // Appends the fixed columns of one row; attribute columns are padded
    // lazily, so callers set attributes for the new row afterwards.
    void appendRow(const Row &row)
    {
        m_ids.append(row.id);
        m_promptTokens.push_back(row.promptTokens);
        m_outputTokens.push_back(row.outputTokens);
        for (int i = 0; i < kStampCount; ++i)
            m_stamps[static_cast<size_t>(i)].push_back(row.stamps[static_cast<size_t>(i)]);
        m_sourceLines.push_back(row.sourceLine);
    }

    // Column for `name`, created empty on first use; callers pad it to the
    // row they are about to set.
    AttributeColumn &attributeColumn(const QString &name, AttributeColumn::Kind kindIfNew)
    {
        const auto index = attributeIndex(name);
        if (index >= 0)
            return m_attributes[static_cast<size_t>(index)];
        m_attributes.emplace_back(name, kindIfNew);
        return m_attributes.back();
    }

    // Pads every attribute column to the current row count. Call once after
    // a row's attributes are set.
    void finishRow()
    {
        for (auto &column : m_attributes) {
            if (column.rowCount() < rowCount())
                column.padTo(rowCount());
        }
    }

    void setTokenTimelines(TokenTimeline server, TokenTimeline client)
    {
        m_serverTokens = std::move(server);
        m_clientTokens = std::move(client);
    }

    size_t idBytes() const { return m_ids.byteSize(); }

    void reserve(qsizetype rows, qsizetype idBytes)
    {
        m_ids.reserve(rows, idBytes);
        m_promptTokens.reserve(static_cast<size_t>(rows));
        m_outputTokens.reserve(static_cast<size_t>(rows));
        for (auto &column : m_stamps)
            column.reserve(static_cast<size_t>(rows));
        m_sourceLines.reserve(static_cast<size_t>(rows));
    }

    // Appends every row of `from` column by column (a loader's per-thread
    // chunks), adding `lineBase` to its source lines; each column of `from`
    // is released as soon as it is copied, so the peak is the merged table
    // plus one chunk column. Attribute columns are matched by name (new ones
    // added in `from`'s order); categorical codes are remapped through the
    // values of `from` interned in its code order, a numeric column meeting
    // text turns categorical, exactly as appending the rows one by one would.
    // Token timelines are not carried over (callers merge them row by row).
    void appendTable(RequestTable &&from, qint64 lineBase)
    {
        const qsizetype base = rowCount();
        const qsizetype added = from.rowCount();
        const auto release = [](auto &column) { std::decay_t<decltype(column)>().swap(column); };
        m_ids.appendAll(from.m_ids);
        from.m_ids = StringArena();
        m_promptTokens.insert(m_promptTokens.end(), from.m_promptTokens.begin(), from.m_promptTokens.end());
        release(from.m_promptTokens);
        m_outputTokens.insert(m_outputTokens.end(), from.m_outputTokens.begin(), from.m_outputTokens.end());
        release(from.m_outputTokens);
        for (size_t s = 0; s < m_stamps.size(); ++s) {
            m_stamps[s].insert(m_stamps[s].end(), from.m_stamps[s].begin(), from.m_stamps[s].end());
            release(from.m_stamps[s]);
        }
        m_sourceLines.reserve(m_sourceLines.size() + from.m_sourceLines.size());
        for (const qint64 line : from.m_sourceLines)
            m_sourceLines.push_back(line + lineBase);
        release(from.m_sourceLines);
        for (auto &column : from.m_attributes) {
            auto &into = attributeColumn(column.name(), column.kind());
            into.padTo(base);
            into.appendColumn(column);
            column = AttributeColumn();
        }
        for (auto &column : m_attributes) {
            if (column.rowCount() < base + added)
                column.padTo(base + added);
        }
        from.m_attributes.clear();
    }

    // Releases large growth slack once loading is done (ColumnMemory).
    void squeeze()
    {
        m_ids.squeeze();
        ColumnMemory::releaseSlack(m_promptTokens);
        ColumnMemory::releaseSlack(m_outputTokens);
        for (auto &column : m_stamps)
            ColumnMemory::releaseSlack(column);
        ColumnMemory::releaseSlack(m_sourceLines);
        for (auto &column : m_attributes)
            column.squeeze();
    }

    size_t memoryBytes() const
    {
        size_t bytes = m_ids.memoryBytes() + m_promptTokens.capacity() * sizeof(qint32)
            + m_outputTokens.capacity() * sizeof(qint32) + m_sourceLines.capacity() * sizeof(qint64);
        for (const auto &column : m_stamps)
            bytes += column.capacity() * sizeof(qint64);
        for (const auto &column : m_attributes)
            bytes += column.memoryBytes();
        bytes += m_serverTokens.memoryBytes() + m_clientTokens.memoryBytes();
        return bytes;
    }

    std::vector<AttributeColumn> &mutableAttributes() { return m_attributes; }

private:
    StringArena m_ids;
    ColumnVector<qint32> m_promptTokens;
    ColumnVector<qint32> m_outputTokens;
    std::array<ColumnVector<qint64>, kStampCount> m_stamps;
    ColumnVector<qint64> m_sourceLines;
    std::vector<AttributeColumn> m_attributes;
    TokenTimeline m_serverTokens;
    TokenTimeline m_clientTokens;
};
