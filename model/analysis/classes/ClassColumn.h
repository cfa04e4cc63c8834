#pragma once

#include "ClassDimension.h"
#include "store/ColumnMemory.h"

#include <QString>
#include <QStringList>

#include <cmath>
#include <vector>

class RequestTable;

// One dimension evaluated on every request: a class code per row and the
// class labels in display order (bands in band order, text sorted, the
// "(none)" class of requests without a value last).
struct ClassColumn
{
    ClassDimension dimension;
    QStringList classes;         // label of each code
    ColumnVector<quint32> codes; // per request row, an index into `classes`

    qsizetype classCount() const { return classes.size(); }
    // Code of `label`, or -1 when no class has that label.
    qsizetype codeOf(const QString &label) const { return classes.indexOf(label); }

    // Label of the class of requests that have no value for the dimension.
    static QString noneLabel() { return QStringLiteral("(none)"); }

    // A numeric attribute with at most this many distinct values is used as
    // categories; one with more is split at its quartiles.
    static constexpr int kMaxNumericCategories = 12;

    // A many-valued numeric attribute split into bands: at its own quartiles
    // by build(), or at given edges (so two traces compared share classes).
    bool banded = false;
    std::vector<double> bandEdges;

    static ClassColumn build(const RequestTable &table, const ClassDimension &dimension, const ClassBands &bands = {});
    // A numeric attribute banded at `edges` whatever its own spread; other
    // dimensions are built as by build(), and so is this one when `edges`
    // is empty, unless `onlyValue` (the label of the one band) is given.
    static ClassColumn buildBanded(const RequestTable &table, const ClassDimension &dimension,
                                   std::vector<double> edges, double onlyValue = std::nan(""));
};
