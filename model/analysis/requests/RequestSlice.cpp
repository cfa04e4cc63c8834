#include "RequestSlice.h"

#include <algorithm>

RequestSlice RequestSlice::all(qsizetype rows)
{
    return fromMask(std::vector<quint8>(size_t(rows), 1));
}

RequestSlice RequestSlice::none(qsizetype rows)
{
    return fromMask(std::vector<quint8>(size_t(rows), 0));
}

RequestSlice RequestSlice::fromMask(std::vector<quint8> mask)
{
    RequestSlice slice;
    slice.m_size = qsizetype(std::count_if(mask.begin(), mask.end(), [](quint8 bit) { return bit != 0; }));
    slice.m_mask = std::move(mask);
    return slice;
}

RequestSlice RequestSlice::fromRows(qsizetype rows, std::span<const qint32> members)
{
    std::vector<quint8> mask(size_t(rows), 0);
    for (const qint32 row : members) {
        if (row >= 0 && row < rows)
            mask[size_t(row)] = 1;
    }
    return fromMask(std::move(mask));
}

RequestSlice RequestSlice::intersected(const RequestSlice &other) const
{
    std::vector<quint8> mask(m_mask.size(), 0);
    const size_t common = std::min(m_mask.size(), other.m_mask.size());
    for (size_t row = 0; row < common; ++row)
        mask[row] = quint8(m_mask[row] & other.m_mask[row]);
    return fromMask(std::move(mask));
}

std::vector<qint32> RequestSlice::rows() const
{
    std::vector<qint32> rows;
    rows.reserve(size_t(m_size));
    for (size_t row = 0; row < m_mask.size(); ++row) {
        if (m_mask[row])
            rows.push_back(qint32(row));
    }
    return rows;
}
