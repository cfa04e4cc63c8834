#pragma once

#include <QString>

struct PathAttribution;
class PathTree;

// Critical-path attribution and the merged path tree for the terminal.
namespace PathReportText {

// The set's excess split over path time by key, with how often each key is
// critical and its slack when it is not, the suspect and its next test.
QString attribution(const PathAttribution &attribution);

// The merged critical paths, indented by depth: mean time per node in the
// set and in the rest (totals with their subtree, and own time).
QString tree(const PathTree &tree, int maxDepth = 8);

} // namespace PathReportText
