#pragma once

#include "analysis/requests/Metric.h"

#include <QString>

#include <vector>

class RequestTable;

// One thing a request can be compared on: a latency metric, a phase, its
// token shape or a class attribute. Numeric features have a value per row
// (NaN when undefined); categorical ones a code into the attribute's values.
struct RequestFeature
{
    enum class Group {
        Metric,    // TTFT, ITL, E2E: what defines the slow set, never ranked
        Phase,     // the seven phases, in ms
        Shape,     // prompt and output tokens
        Attribute, // class attributes of the trace
    };

    Group group = Group::Attribute;
    QString key;   // "ttft", "queue", "prompt_tokens", "region"
    QString label; // "TTFT", "Queue", "Prompt tokens", "region"
    QString unit;  // "ms", "ms/token", "tokens", or empty
    bool numeric = true;
    Metric metric = Metric::Ttft;         // Metric and Phase groups
    Boundary boundary = Boundary::Client; // Metric group
    qsizetype attribute = -1;             // Attribute group: index into the table's attributes
    bool prompt = true;                   // Shape group: prompt (true) or output tokens

    static RequestFeature ofMetric(Metric metric, Boundary boundary);
    static RequestFeature ofTokens(bool prompt);
    static RequestFeature ofAttribute(const RequestTable &table, qsizetype attribute);

    // Unique among features, boundary included: "ttft@server", "queue", "attr:region".
    QString cacheKey() const;

    bool isRanked() const { return group != Group::Metric; }

    bool operator==(const RequestFeature &other) const = default;
};

// Every feature worth comparing a slow request on, in display order:
// TTFT (at `boundary`), ITL, E2E, the phases, prompt and output tokens, then
// the trace's attributes.
std::vector<RequestFeature> comparisonFeatures(const RequestTable &table, Boundary boundary);

// The per-row values of a numeric feature (NaN where undefined).
ColumnVector<double> featureValues(const RequestTable &table, const RequestFeature &feature);

// Display text of any feature's value on one row; empty when absent.
QString featureText(const RequestTable &table, const RequestFeature &feature, qsizetype row);
