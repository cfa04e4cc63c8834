#pragma once

#include <nlohmann/json_fwd.hpp>

#include <span>

struct ProfileReport;
struct MetricSummary;
struct RejectedRecord;
struct LoadNotice;

// Machine-readable renderings: every figure of the text report and more,
// with NaN written as null. Field names are stable for scripts.
namespace ReportJson {

nlohmann::json metricSummary(const MetricSummary &summary);
nlohmann::json profile(const ProfileReport &report);
nlohmann::json rejected(std::span<const RejectedRecord> records);
nlohmann::json notices(std::span<const LoadNotice> notices);

} // namespace ReportJson
