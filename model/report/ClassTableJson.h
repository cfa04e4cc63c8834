#pragma once

#include <nlohmann/json_fwd.hpp>

#include <QString>

struct ClassTable;

// The class table for scripts: every figure of the text table, intervals
// with their ranks and coverage, and "status": "too_few_requests" with the
// n it needs instead of a value where the interval cannot be formed.
namespace ClassTableJson {

nlohmann::json table(const ClassTable &table, const QString &slice);

} // namespace ClassTableJson
