#pragma once

#include "DiagnosisRecord.h"

#include <QStringList>

// The record's measured parts in words, shared by the Record dock, the
// one-page report and the terminal. Numbers carry units and digit grouping.
namespace RecordText {

// "p95 client TTFT < 1,200 ms"
QString objective(const Objective &objective);
// "met by 452.9 ms: p95 747.1 ms [95% interval 710.8–788.4 ms], n = 2,000"
QString check(const ObjectiveCheck &check);
// "met", "missed", "met (not decided)", "not measured"
QString checkVerdict(const ObjectiveCheck &check);
// "135.0 requests/s over 14.8 s, gaps CV 1.06 (about Poisson), peak 307 in one second, up to 569 in flight (mean
// 184.9)"
QString arrival(const ArrivalProcess &arrival);
// "prompt tokens p50 439 / p95 5,559 / max 29,833; output tokens p50 160 / p95 530 / max 2,466"
QString tokens(const RequestShape &shape);
// "region: eu-west 48.7%, us-east 35.2%, ap-south 16.1%" per dimension
QStringList classMix(const RequestShape &shape);
// "1 workflow, 10 spans (median), 2 model calls (median)"; empty without workflows
QString workflows(const RequestShape &shape);
// "network_in 2,000 · gateway 2,000 · …" observed counts; unobserved phases named
QString phases(const TraceBoundaries &boundaries);
QString rejected(const TraceBoundaries &boundaries);
QString suspectSource(SuspectedPhase::Source source);
QString verdict(const StopVerdict &verdict);
QString stopRule(const StopRule &rule, const Coordinates &coordinates);

QString grouped(qint64 value);
QString grouped(double value, int decimals);
QString milliseconds(double value); // "1,058.5 ms"

} // namespace RecordText
