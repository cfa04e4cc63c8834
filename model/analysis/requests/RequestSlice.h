#pragma once

#include <QtGlobal>

#include <span>
#include <vector>

// A subset of the request rows (the current filter): one byte per row, so
// membership is a load and slices combine by AND.
class RequestSlice
{
public:
    RequestSlice() = default;

    static RequestSlice all(qsizetype rows);
    static RequestSlice none(qsizetype rows);
    static RequestSlice fromMask(std::vector<quint8> mask);
    static RequestSlice fromRows(qsizetype rows, std::span<const qint32> members);

    qsizetype rowCount() const { return qsizetype(m_mask.size()); } // rows of the table
    qsizetype size() const { return m_size; }                       // rows in the slice
    bool isAll() const { return m_size == rowCount(); }
    bool contains(qsizetype row) const { return m_mask[size_t(row)] != 0; }
    const std::vector<quint8> &mask() const { return m_mask; }

    RequestSlice intersected(const RequestSlice &other) const;
    std::vector<qint32> rows() const;

    bool operator==(const RequestSlice &other) const = default;

private:
    std::vector<quint8> m_mask;
    qsizetype m_size = 0;
};
