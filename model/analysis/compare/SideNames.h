#pragma once

#include <QString>

#include <utility>

// What to call the two traces of a comparison wherever they are named (dock
// header, legends, lanes, CLI text and JSON, status bar). Usually their file
// names; when the file names are equal (two runs of one benchmark write the
// same file name into different folders) the shortest tail of each path that
// tells them apart: "vllm-70b-2replicas/LMBench_sharegpt_output_1.csv" vs
// "llm-d-70b-2replicas/LMBench_sharegpt_output_1.csv". Folders between the
// first differing one and the file are equal on both sides and shown as "…":
// "run-a/…/out.csv" vs "run-b/…/out.csv".
namespace SideNames {

// Paths may be relative (to the working directory) or absolute. The same
// file on both sides keeps its file name on both.
std::pair<QString, QString> distinguish(const QString &baselinePath, const QString &candidatePath);

} // namespace SideNames
