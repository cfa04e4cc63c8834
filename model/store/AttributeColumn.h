#pragma once

#include "ColumnMemory.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>
#include <vector>

// One class attribute (region, priority, cached_prefix, ...) across all
// requests. Text and booleans are categorical: each row holds a code into
// `values`, 0 meaning absent. Numbers stay numeric (NaN meaning absent) so
// they can be banded and compared as distributions; a column that meets text
// after numbers turns categorical.
class AttributeColumn
{
public:
    enum class Kind { Categorical, Numeric };

    explicit AttributeColumn(QString name = {}, Kind kind = Kind::Categorical)
        : m_name(std::move(name))
        , m_kind(kind)
    {
        m_values.append(QString());
    }

    const QString &name() const { return m_name; }
    Kind kind() const { return m_kind; }
    bool isNumeric() const { return m_kind == Kind::Numeric; }
    qsizetype rowCount() const { return static_cast<qsizetype>(isNumeric() ? m_numbers.size() : m_codes.size()); }

    // Categorical access.
    quint32 code(qsizetype row) const { return m_codes[static_cast<size_t>(row)]; }
    const QStringList &values() const { return m_values; }
    qsizetype valueCount() const { return m_values.size(); }
    quint32 codeOf(const QString &value) const { return m_index.value(value, 0); }

    // Numeric access.
    double number(qsizetype row) const { return m_numbers[static_cast<size_t>(row)]; }

    // Either kind, as display text; empty when absent.
    QString text(qsizetype row) const
    {
        if (!isNumeric())
            return m_values[code(row)];
        const double value = number(row);
        return std::isnan(value) ? QString() : QString::number(value, 'g', 15);
    }

    bool isPresent(qsizetype row) const { return isNumeric() ? !std::isnan(number(row)) : code(row) != 0; }

    // Appending. Rows must be appended in order; padTo() fills absent rows.
    void padTo(qsizetype rows)
    {
        if (isNumeric())
            m_numbers.resize(static_cast<size_t>(rows), std::numeric_limits<double>::quiet_NaN());
        else
            m_codes.resize(static_cast<size_t>(rows), 0);
    }

    void appendNumber(double value)
    {
        if (isNumeric()) {
            m_numbers.push_back(value);
            return;
        }
        appendText(QString::number(value, 'g', 15));
    }

    void appendText(const QString &value)
    {
        if (isNumeric())
            convertToCategorical();
        m_codes.push_back(internValue(value));
    }

    void appendCode(quint32 code)
    {
        if (isNumeric())
            convertToCategorical();
        m_codes.push_back(code);
    }

    void appendAbsent() { padTo(rowCount() + 1); }

    // Appends every row of `other` (another chunk of the same attribute):
    // numbers stay numbers while both are numeric; otherwise this column
    // turns categorical and `other`'s values are interned in its code order,
    // then its codes remapped, as appending its rows one by one would.
    void appendColumn(const AttributeColumn &other)
    {
        if (isNumeric() && other.isNumeric()) {
            m_numbers.insert(m_numbers.end(), other.m_numbers.begin(), other.m_numbers.end());
            return;
        }
        if (other.isNumeric()) { // text here already: each number joins as its text
            m_codes.reserve(m_codes.size() + other.m_numbers.size());
            for (const double value : other.m_numbers)
                m_codes.push_back(std::isnan(value) ? 0 : internValue(QString::number(value, 'g', 15)));
            return;
        }
        convertToCategorical();
        std::vector<quint32> remap(size_t(other.valueCount()));
        for (qsizetype v = 0; v < other.valueCount(); ++v)
            remap[size_t(v)] = internValue(other.m_values[v]);
        m_codes.reserve(m_codes.size() + other.m_codes.size());
        for (const quint32 code : other.m_codes)
            m_codes.push_back(remap[code]);
    }

    quint32 internValue(const QString &value)
    {
        if (value.isEmpty())
            return 0;
        const auto it = m_index.constFind(value);
        if (it != m_index.cend())
            return it.value();
        const auto code = static_cast<quint32>(m_values.size());
        m_values.append(value);
        m_index.insert(value, code);
        return code;
    }

    void convertToCategorical()
    {
        if (!isNumeric())
            return;
        m_kind = Kind::Categorical;
        ColumnVector<double> numbers;
        numbers.swap(m_numbers);
        m_codes.reserve(numbers.size());
        for (const double value : numbers)
            m_codes.push_back(std::isnan(value) ? 0 : internValue(QString::number(value, 'g', 15)));
    }

    void reserve(qsizetype rows)
    {
        if (isNumeric())
            m_numbers.reserve(static_cast<size_t>(rows));
        else
            m_codes.reserve(static_cast<size_t>(rows));
    }

    // Releases large growth slack (ColumnMemory).
    void squeeze()
    {
        ColumnMemory::releaseSlack(m_codes);
        ColumnMemory::releaseSlack(m_numbers);
    }

    size_t memoryBytes() const { return m_codes.capacity() * sizeof(quint32) + m_numbers.capacity() * sizeof(double); }

private:
    QString m_name;
    Kind m_kind = Kind::Categorical;
    ColumnVector<quint32> m_codes;
    ColumnVector<double> m_numbers;
    QStringList m_values;
    QHash<QString, quint32> m_index;
};
