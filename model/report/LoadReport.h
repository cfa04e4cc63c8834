#pragma once

#include <nlohmann/json_fwd.hpp>

#include <QString>

struct BurstEnvelope;
struct LittleInWindow;
struct LittlesLawCheck;
struct LoadTimeline;

// Load over time (tracelane-cli load): the series per bin, the burst
// envelope, Little's law inside the steady middle and the steadiness test.
namespace LoadReport {

struct Parts
{
    const LoadTimeline &timeline;
    const BurstEnvelope &burst;
    const LittleInWindow &little;
    const LittlesLawCheck &steadiness;
};

QString text(const Parts &parts);
nlohmann::json json(const Parts &parts);

} // namespace LoadReport
