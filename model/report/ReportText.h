#pragma once

#include <QString>

#include <span>

struct ProfileReport;
struct RejectedRecord;
struct LoadNotice;

// Plain-text renderings for the terminal and the GUI's report panel. Every
// figure line names its boundary and sample size.
namespace ReportText {

QString profile(const ProfileReport &report);

// "Rejected records: N" followed by up to `limit` of them, one per line.
QString rejectedSummary(std::span<const RejectedRecord> rejected, int limit = 20);
QString notices(std::span<const LoadNotice> notices);

// "12.3 ms", "1.24 s", "850 µs": a duration with a unit that fits it.
QString duration(double ms);

} // namespace ReportText
