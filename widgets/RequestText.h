#pragma once

#include "analysis/requests/Boundary.h"

#include <QList>
#include <QPair>
#include <QString>

class RequestTable;

// Words and numbers describing one request, shared by the swimlane tooltip,
// the request detail panel and tests. Formatting only: values come from the
// model's metric functions.
namespace RequestText {

// "202.0 ms", "1.85 s", "—" for NaN.
QString milliseconds(double ms);
// Always in ms (2 decimals under 100 ms, else 1): for a table column, whose
// cells must share one unit to be read down, compared and copied.
QString inMilliseconds(double ms);
// ITL as "21.75 ms/token".
QString perToken(double ms);

// (label, value) lines: id, class attributes, tokens, TTFT/ITL/E2E at the
// given boundary, then every phase (or "not observed").
QList<QPair<QString, QString>> facts(const RequestTable &table, qint32 row, Boundary boundary);

// The facts as a small rich-text table with phase colour swatches.
QString tooltipHtml(const RequestTable &table, qint32 row, Boundary boundary);

} // namespace RequestText
