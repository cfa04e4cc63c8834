#pragma once

#include "ClassDimension.h"
#include "analysis/requests/RequestSlice.h"

#include <QString>

#include <vector>

class RequestTable;

// "region = ap-south and prompt_band = 2k–8k": the requests of one or more
// classes, as a user picks them by selecting a cell of the class table.
// Conditions on the same dimension are alternatives (OR); conditions on
// different dimensions must all hold (AND).
class ClassFilter
{
public:
    struct Condition
    {
        QString dimension; // ClassDimension::key
        QString value;     // class label as ClassColumn gives it

        bool operator==(const Condition &other) const = default;
    };

    ClassFilter() = default;
    explicit ClassFilter(std::vector<Condition> conditions)
        : m_conditions(std::move(conditions))
    { }

    // Parses "region=ap-south,priority=batch"; false with a message on bad
    // syntax. Dimensions and values are checked only when applied.
    static bool parse(const QString &text, ClassFilter *filter, QString *error);

    bool isEmpty() const { return m_conditions.empty(); }
    const std::vector<Condition> &conditions() const { return m_conditions; }
    void add(Condition condition) { m_conditions.push_back(std::move(condition)); }

    // The rows that satisfy every condition. An unknown dimension or value
    // selects nothing and is reported through `error` (when given).
    RequestSlice apply(const RequestTable &table, const ClassBands &bands = {}, QString *error = nullptr) const;

    // "region = ap-south, priority = batch", or "all requests".
    QString describe() const;

    bool operator==(const ClassFilter &other) const = default;

private:
    std::vector<Condition> m_conditions;
};
