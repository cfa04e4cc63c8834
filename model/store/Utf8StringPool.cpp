#include "Utf8StringPool.h"

#include <cstring>

Utf8StringPool::Utf8StringPool()
{
    m_views.emplace_back();
}

std::string_view Utf8StringPool::store(std::string_view text)
{
    if (text.size() > kBlockBytes / 4) {
        // A long value gets its own block rather than wasting a shared one.
        auto block = std::make_unique<char[]>(text.size());
        std::memcpy(block.get(), text.data(), text.size());
        const std::string_view stored(block.get(), text.size());
        // Keep the current shared block last so it stays the one being filled.
        m_blocks.insert(m_blocks.empty() ? m_blocks.end() : m_blocks.end() - 1, std::move(block));
        m_storedBytes += text.size();
        return stored;
    }
    if (m_blockUsed + text.size() > kBlockBytes) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockBytes));
        m_blockUsed = 0;
        m_storedBytes += kBlockBytes;
    }
    char *at = m_blocks.back().get() + m_blockUsed;
    std::memcpy(at, text.data(), text.size());
    m_blockUsed += text.size();
    return {at, text.size()};
}

quint32 Utf8StringPool::intern(std::string_view text)
{
    if (text.empty())
        return 0;
    const auto code = static_cast<quint32>(m_views.size());
    const auto viewOf = [this](quint32 existing) { return m_views[existing]; };
    const qint64 found = m_codes.findOrInsert(text, code, viewOf);
    if (found != IdIndex::kNotFound)
        return static_cast<quint32>(found);
    m_views.push_back(store(text));
    return code;
}

quint32 Utf8StringPool::find(std::string_view text) const
{
    if (text.empty())
        return 0;
    const qint64 found = m_codes.find(text, [this](quint32 existing) { return m_views[existing]; });
    return found == IdIndex::kNotFound ? 0 : static_cast<quint32>(found);
}

size_t Utf8StringPool::memoryBytes() const
{
    return m_storedBytes + m_views.capacity() * sizeof(std::string_view) + m_codes.memoryBytes();
}
