#pragma once

#include <nlohmann/json_fwd.hpp>

#include <QString>

struct StreamSummary;

// The stream report (tracelane-cli stream, the GUI's stream figures): pooled
// gap percentiles per side beside the per-request ITL and TPOT, stalls,
// chunking, coalescing and its mechanism, the worst requests.
namespace StreamReport {

QString text(const StreamSummary &summary);
nlohmann::json json(const StreamSummary &summary);

} // namespace StreamReport
