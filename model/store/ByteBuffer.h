#pragma once

#include <QtGlobal>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

// A growable array of bytes kept with malloc/realloc. A large buffer is a
// mapping of its own, so growing or shrinking it (realloc → mremap) moves no
// bytes and touches no page twice: what a per-token timeline of hundreds of
// megabytes needs while it is built and merged, where std::vector would copy
// everything at each doubling and zero-fill every new page.
class ByteBuffer
{
public:
    ByteBuffer() = default;
    ~ByteBuffer() { std::free(m_data); }
    ByteBuffer(const ByteBuffer &other) { append(other.data(), other.size()); }
    ByteBuffer(ByteBuffer &&other) noexcept
        : m_data(std::exchange(other.m_data, nullptr))
        , m_size(std::exchange(other.m_size, 0))
        , m_capacity(std::exchange(other.m_capacity, 0))
    { }
    ByteBuffer &operator=(const ByteBuffer &other)
    {
        if (this != &other) {
            m_size = 0;
            append(other.data(), other.size());
        }
        return *this;
    }
    ByteBuffer &operator=(ByteBuffer &&other) noexcept
    {
        if (this != &other) {
            std::free(m_data);
            m_data = std::exchange(other.m_data, nullptr);
            m_size = std::exchange(other.m_size, 0);
            m_capacity = std::exchange(other.m_capacity, 0);
        }
        return *this;
    }

    const quint8 *data() const { return m_data; }
    size_t size() const { return m_size; }
    size_t capacity() const { return m_capacity; }
    bool empty() const { return m_size == 0; }

    void append(const quint8 *bytes, size_t count)
    {
        if (count == 0)
            return;
        if (m_size + count > m_capacity)
            reallocate(std::max(m_size + count, m_capacity + m_capacity / 2));
        std::memcpy(m_data + m_size, bytes, count);
        m_size += count;
    }
    void reserve(size_t capacity)
    {
        if (capacity > m_capacity)
            reallocate(capacity);
    }
    void shrinkToFit()
    {
        if (m_size == 0) {
            std::free(m_data);
            m_data = nullptr;
            m_capacity = 0;
        } else if (m_capacity > m_size) {
            reallocate(m_size);
        }
    }

private:
    void reallocate(size_t capacity)
    {
        auto *grown = static_cast<quint8 *>(std::realloc(m_data, capacity));
        if (!grown)
            throw std::bad_alloc();
        m_data = grown;
        m_capacity = capacity;
    }

    quint8 *m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};
