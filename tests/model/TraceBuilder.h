#pragma once

// Builds small request tables in code for tests: each request is given by
// its send time and phase durations, so every metric is known exactly.

#include "store/TraceStore.h"

#include <array>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

struct TestRequest
{
    double sendMs = 0.0;
    // network_in, gateway, queue, prefill, first_decode, network_to_first, stream
    std::array<double, kPhaseCount> phasesMs{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 10.0};
    qint32 promptTokens = 100;
    qint32 outputTokens = 11;
    std::vector<std::pair<QString, QString>> text;   // categorical attributes
    std::vector<std::pair<QString, double>> numbers; // numeric attributes
    int missingStamp = -1;                           // a Stamp left unobserved

    TestRequest &with(const QString &name, const QString &value)
    {
        text.emplace_back(name, value);
        return *this;
    }
    TestRequest &withNumber(const QString &name, double value)
    {
        numbers.emplace_back(name, value);
        return *this;
    }
    TestRequest &phase(Phase which, double ms)
    {
        phasesMs[size_t(which)] = ms;
        return *this;
    }
};

class TraceBuilder
{
public:
    TraceBuilder &add(const TestRequest &request)
    {
        m_requests.push_back(request);
        return *this;
    }

    std::shared_ptr<TraceStore> store() const
    {
        auto store = std::make_shared<TraceStore>();
        auto &table = store->requests;
        std::vector<std::string> ids;
        for (size_t i = 0; i < m_requests.size(); ++i)
            ids.push_back("req-" + std::to_string(i + 1));
        for (size_t i = 0; i < m_requests.size(); ++i) {
            const auto &request = m_requests[i];
            RequestTable::Row row;
            row.id = ids[i];
            row.promptTokens = request.promptTokens;
            row.outputTokens = request.outputTokens;
            row.sourceLine = qint64(i) + 1;
            qint64 clock = std::llround(request.sendMs * 1e6);
            row.stamps[0] = clock;
            for (int phase = 0; phase < kPhaseCount; ++phase) {
                clock += std::llround(request.phasesMs[size_t(phase)] * 1e6);
                row.stamps[size_t(phase) + 1] = clock;
            }
            if (request.missingStamp >= 0)
                row.stamps[size_t(request.missingStamp)] = kNoTime;
            table.appendRow(row);
            const qsizetype index = table.rowCount() - 1;
            for (const auto &[name, value] : request.text) {
                auto &column = table.attributeColumn(name, AttributeColumn::Kind::Categorical);
                column.padTo(index);
                column.appendText(value);
            }
            for (const auto &[name, value] : request.numbers) {
                auto &column = table.attributeColumn(name, AttributeColumn::Kind::Numeric);
                column.padTo(index);
                column.appendNumber(value);
            }
            table.finishRow();
        }
        return store;
    }

private:
    std::vector<TestRequest> m_requests;
};
