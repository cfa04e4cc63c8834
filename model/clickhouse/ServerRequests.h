#pragma once

#include "ClickHouseClient.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/requests/Metric.h"
#include "store/RequestTable.h"

#include <QString>

#include <memory>

// The requests of a Tracelane table as the server sees them, for analyses the
// server computes: SQL for a metric in exactly the arithmetic of
// metricValueMs() (integer ns differences, then / 1e6, ITL / (tokens − 1)),
// the rows in range, and class dimensions. A dimension's classes are decided
// here exactly as on a loaded trace: its distinct raw values (tens, not
// millions) are fetched into a small RequestTable, ClassColumn::build labels
// them, and the server maps raw values to class codes with transform().
class ServerRequests
{
public:
    explicit ServerRequests(const ClickHouseClient &client)
        : m_client(client)
    { }

    // Reads which attributes the table's rows carry (in first-seen order, as
    // a loader interns them) so dimensions resolve as on the file.
    bool open(QString *error);

    const ClickHouseClient &client() const { return m_client; }
    // The attribute columns only (no rows): what classDimensionFromKey reads.
    const RequestTable &attributeNames() const { return m_names; }

    // FROM and WHERE of the rows in the URL's time range.
    QString fromWhere() const;
    // Whether `metric` is defined for a row, and its value in ms (Float64).
    static QString definedSql(Metric metric, Boundary boundary);
    static QString valueSql(Metric metric, Boundary boundary);

    // The class column of `dimension` over the table's distinct values, and
    // the SQL giving each row its class code. False with `error` when the
    // dimension cannot be computed on the server.
    bool classColumn(const ClassDimension &dimension, const ClassBands &bands, ClassColumn *column, QString *codeSql,
                     QString *error) const;

    // Float64 bits <-> SQL, so no value passes through decimal text.
    static QString float64Sql(double value);
    static QString float64BitsSql(const QString &expression);
    static double float64FromBits(const QString &bits);

private:
    const ClickHouseClient &m_client;
    RequestTable m_names;
};
