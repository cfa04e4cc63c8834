#pragma once

#include <QString>

struct FeatureSeparation;

// Numbers of the exceedance views as they are shown: always with their unit.
// Formatting only; the values come from model/analysis.
namespace FeatureText {

// "545.0 ms", "512 tokens", "20.00 ms/token", "—" for NaN.
QString withUnit(double value, const QString &unit);
// "20.0%".
QString share(double share);
// "ap-south: 100.0% of set vs 20.0% of rest" or "median 520.0 ms vs 57.0 ms".
QString separationDetail(const FeatureSeparation &separation);

} // namespace FeatureText
