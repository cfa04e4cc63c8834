#pragma once

#include "store/Phase.h"

#include <QString>

#include <vector>

class SpanGraph;

// Which spans an edit applies to: those whose id, name or operation (kind)
// equals `text`; `ordinal` k picks the k-th of them in start order
// ("chat@1" is the first model call). An empty text means every span.
struct SpanSelector
{
    QString text;
    int ordinal = 0; // 1-based; 0 = all matches

    bool isEmpty() const { return text.isEmpty(); }
    QString toString() const;
    std::vector<qint32> resolve(const SpanGraph &graph) const;

    // "NAME" or "NAME@K".
    static SpanSelector parse(const QString &text);
};

// One change of a what-if.
struct WhatIfEdit
{
    enum class Kind {
        ScaleSpans,    // spans (and their subtrees) × factor
        ScalePhase,    // one phase of the selected spans (all spans if none) × factor
        ShortenAnswer, // the answer's stream shorter by tokens × msPerToken
        AddDependency, // target could not start before `from` ends
    };

    Kind kind = Kind::ScaleSpans;
    SpanSelector target;
    SpanSelector from;
    Phase phase = Phase::Prefill;
    double factor = 1.0;
    qint32 tokens = 0;
    double msPerToken = 0.0;

    QString toString() const;

    // Command-line syntax; false with a message naming the expected form.
    //   scale:          SPAN_OR_KIND=FACTOR
    //   scale-phase:    [SPAN:]PHASE=FACTOR
    //   shorten-answer: [SPAN:]N@MS_PER_TOKEN
    //   add-dependency: FROM>TO
    // FACTOR is a number (0.75), a fraction (2/3) or a change in per cent (-25%).
    static bool parseScale(const QString &text, WhatIfEdit *edit, QString *error);
    static bool parseScalePhase(const QString &text, WhatIfEdit *edit, QString *error);
    static bool parseShortenAnswer(const QString &text, WhatIfEdit *edit, QString *error);
    static bool parseAddDependency(const QString &text, WhatIfEdit *edit, QString *error);
    static bool parseFactor(const QString &text, double *factor, QString *error);
};
