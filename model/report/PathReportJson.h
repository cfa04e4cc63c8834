#pragma once

#include <nlohmann/json_fwd.hpp>

struct PathAttribution;
class PathTree;

// Critical-path attribution and the merged path tree for scripts.
namespace PathReportJson {

nlohmann::json attribution(const PathAttribution &attribution);
nlohmann::json tree(const PathTree &tree);

} // namespace PathReportJson
