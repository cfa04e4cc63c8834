#pragma once

#include <QByteArray>
#include <QString>

#include "IdIndex.h"

#include <memory>
#include <string_view>
#include <vector>

// Interns repeated UTF-8 strings (span names, attribute keys and values) as
// small integer codes, keeping the bytes once in stable blocks. Lookups take
// a string_view, so the loader interns straight from its parse buffer without
// building a QString; views convert on access. Code 0 is the empty string.
class Utf8StringPool
{
public:
    Utf8StringPool();
    Utf8StringPool(Utf8StringPool &&) noexcept = default;
    Utf8StringPool &operator=(Utf8StringPool &&) noexcept = default;
    Utf8StringPool(const Utf8StringPool &) = delete;
    Utf8StringPool &operator=(const Utf8StringPool &) = delete;

    quint32 intern(std::string_view text);
    quint32 intern(const QString &text)
    {
        const QByteArray utf8 = text.toUtf8();
        return intern(std::string_view(utf8.constData(), static_cast<size_t>(utf8.size())));
    }
    // 0 when `text` was never interned (or is empty).
    quint32 find(std::string_view text) const;
    quint32 find(const QString &text) const
    {
        const QByteArray utf8 = text.toUtf8();
        return find(std::string_view(utf8.constData(), static_cast<size_t>(utf8.size())));
    }

    std::string_view view(quint32 code) const { return m_views[code]; }
    QString text(quint32 code) const
    {
        const auto bytes = m_views[code];
        return QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
    }
    qsizetype size() const { return static_cast<qsizetype>(m_views.size()); }
    size_t memoryBytes() const;

private:
    std::string_view store(std::string_view text);

    static constexpr size_t kBlockBytes = size_t{64} * 1024;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    size_t m_blockUsed = kBlockBytes;
    size_t m_storedBytes = 0;
    std::vector<std::string_view> m_views;
    IdIndex m_codes; // code of each interned string, by its text
};
