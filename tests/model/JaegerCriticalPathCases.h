#pragma once

// Test-only reader for ../shared/realdata/jaeger-ui/criticalpath-testCases.extracted.json:
// Jaeger UI's nine critical-path cases (data derived from its test modules).
// It is not a product format, so it lives with the tests.

#include "analysis/workflows/CriticalPath.h"
#include "analysis/workflows/SpanGraph.h"

#include <QFile>
#include <QHash>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

struct JaegerCriticalPathCase
{
    QString name;
    std::shared_ptr<SpanGraph> graph;
    // Expected sections in time order (Jaeger lists them from the end back).
    std::vector<PathSection> expected;
};

namespace JaegerCases {

inline QString spanKind(const nlohmann::json &span)
{
    for (const auto &tag : span.value("tags", nlohmann::json::array())) {
        if (tag.value("key", std::string()) == "span.kind")
            return QString::fromStdString(tag.value("value", std::string()));
    }
    return {};
}

inline std::vector<JaegerCriticalPathCase> load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return {};
    }
    const auto document = nlohmann::json::parse(file.readAll().toStdString());
    std::vector<JaegerCriticalPathCase> cases;
    for (const auto &entry : document) {
        JaegerCriticalPathCase testCase;
        testCase.name = QString::fromStdString(entry.at("name").get<std::string>());
        testCase.graph = std::make_shared<SpanGraph>();
        const auto &spans = entry.at("trace").at("spans");
        QHash<QString, qint32> rowOf;
        for (const auto &span : spans) {
            const auto id = span.at("spanID").get<std::string>();
            const qint64 start = span.at("startTime").get<qint64>() * 1000; // µs → ns
            const qint64 duration = span.at("duration").get<qint64>() * 1000;
            SpanGraph::Span row;
            row.id = id;
            row.name = QString::fromStdString(span.value("operationName", std::string()));
            row.operation = spanKind(span);
            row.start = start;
            row.end = start + duration;
            rowOf.insert(QString::fromStdString(id), testCase.graph->appendSpan(row));
        }
        // Parent: the CHILD_OF reference, else FOLLOWS_FROM (non-blocking, as
        // is a PRODUCER → CONSUMER child).
        for (const auto &span : spans) {
            const qint32 row = rowOf.value(QString::fromStdString(span.at("spanID").get<std::string>()));
            for (const auto &reference : span.value("references", nlohmann::json::array())) {
                const QString parentId = QString::fromStdString(reference.at("spanID").get<std::string>());
                if (!rowOf.contains(parentId))
                    continue;
                const qint32 parent = rowOf.value(parentId);
                const bool followsFrom = reference.value("refType", std::string()) == "FOLLOWS_FROM";
                if (testCase.graph->parent(row) >= 0 && followsFrom)
                    continue;
                testCase.graph->setParent(row, parent);
                const bool producerConsumer = testCase.graph->operation(parent) == QStringLiteral("producer")
                    && testCase.graph->operation(row) == QStringLiteral("consumer");
                testCase.graph->setBlocksParent(row, !(followsFrom || producerConsumer));
            }
        }
        for (const auto &section : entry.at("expectedCriticalPathSections")) {
            const QString id = QString::fromStdString(section.at("spanID").get<std::string>());
            testCase.expected.insert(testCase.expected.begin(),
                                     PathSection{rowOf.value(id, PathSection::kNoSpan),
                                                 section.at("sectionStart").get<qint64>() * 1000,
                                                 section.at("sectionEnd").get<qint64>() * 1000});
        }
        cases.push_back(std::move(testCase));
    }
    return cases;
}

} // namespace JaegerCases
