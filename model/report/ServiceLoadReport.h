#pragma once

#include <nlohmann/json_fwd.hpp>

#include <QString>

struct Goodput;
struct LittlesLawCheck;

// Goodput beside throughput and rejected load, and the Little's-law check,
// for the terminal and for scripts.
namespace ServiceLoadReport {

QString text(const Goodput &goodput, const LittlesLawCheck &little);
nlohmann::json json(const Goodput &goodput, const LittlesLawCheck &little);

} // namespace ServiceLoadReport
