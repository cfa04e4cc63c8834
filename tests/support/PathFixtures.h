#pragma once

// Constructed workflows and checks shared by the critical-path attribution
// tests (tst_pathattribution: slow set against the rest; tst_comparepaths:
// candidate against baseline).

#include "support/WorkflowPopulation.h"

#include "analysis/workflows/PathAttribution.h"

#include <QStringList>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

namespace PathFixtures {

// An agent: retrieval, a model call, a tool named with an order id, a
// second model call. Everything follows in sequence with 2 ms of the
// agent's own time before each step and 2 ms after the last.
inline std::vector<PopulationSpan> agentWorkflow(int index, double retrievalMs, double toolMs,
                                                 const std::string &retrievalService = "vector-db")
{
    std::vector<PopulationSpan> spans;
    double t = 2.0;
    const auto step = [&](const std::string &id, const std::string &name, const std::string &operation,
                          const std::string &service, double ms) {
        spans.push_back({id, "agent", name, operation, service, t, t + ms});
        t += ms + 2.0;
    };
    step("retrieve", "retrieve documents", "retrieval", retrievalService, retrievalMs);
    step("plan", "chat plan", "chat", "llm", 300.0);
    step("tool", "lookup_order " + std::to_string(10'000 + index * 37), "execute_tool", "orders", toolMs);
    step("answer", "chat answer", "chat", "llm", 500.0);
    spans.insert(spans.begin(), {"agent", "", "invoke_agent support", "invoke_agent", "agent", 0.0, t});
    return spans;
}

// Two retrievals in parallel under an adviser: policy (430 ms, on the path)
// and account (off the path while it ends first), then the answer 10 ms
// after the policy retrieval.
inline std::vector<PopulationSpan> adviserWorkflow(double accountMs, double chatMs)
{
    return {{"root", "", "adviser", "invoke_agent", "adviser", 0.0, 440.0 + chatMs},
            {"policy", "root", "policy retrieval", "retrieval", "policy-db", 0.0, 430.0},
            {"account", "root", "account retrieval", "retrieval", "account-db", 0.0, accountMs},
            {"chat", "root", "chat answer", "chat", "llm", 440.0, 440.0 + chatMs}};
}

// "key=diff" for every key with a non-zero difference, largest first.
inline QString differences(const PathAttribution &attribution)
{
    QStringList parts;
    for (const auto &key : attribution.keys) {
        if (std::abs(key.differenceMs) < 1e-9)
            continue;
        parts << QStringLiteral("%1=%2").arg(attribution.label(key)).arg(key.differenceMs, 0, 'f', 3);
    }
    return parts.join(QStringLiteral(", "));
}

// The parts are integer-ns sums that add up to each side's path totals, and
// their mean differences to the difference of the means.
inline void checkExact(const PathAttribution &attribution)
{
    QVERIFY(attribution.exact);
    if (attribution.isEmpty())
        return;
    QVERIFY2(
        std::abs(attribution.sumOfContributions() - attribution.differenceMs) < 1e-9,
        qPrintable(QStringLiteral("%1 vs %2").arg(attribution.sumOfContributions()).arg(attribution.differenceMs)));
    qint64 setParts = 0;
    qint64 restParts = 0;
    for (const auto &key : attribution.keys) {
        setParts += key.setSumNs;
        restParts += key.restSumNs;
    }
    // Means of integer-ns sums: the parts' sums are the paths' sums exactly.
    QCOMPARE(double(setParts) / double(attribution.setN) / 1e6 + attribution.outsideSetMeanMs, attribution.setMeanMs);
    QCOMPARE(double(restParts) / double(attribution.restN) / 1e6 + attribution.outsideRestMeanMs,
             attribution.restMeanMs);
}

} // namespace PathFixtures
