#pragma once

// Synthetic request populations for comparison tests: seeded, with known
// phases per request, so a change (one class's queue halved, a faster
// arrival rate, longer prompts) is exactly what differs between two of them.

#include "SeededRandom.h"
#include "TraceBuilder.h"

#include <QStringList>

#include <functional>
#include <memory>

struct PopulationSpec
{
    std::uint64_t seed = 1;
    int requests = 900;
    double meanGapMs = 100.0; // Poisson arrivals at 10 req/s
    QStringList regions = {QStringLiteral("eu"), QStringLiteral("us"), QStringLiteral("ap")};
    QString queueScaledIn; // this region's queue is scaled by queueFactor
    double queueFactor = 1.0;
    double promptFactor = 1.0;
    // Optional: pick the region of request i differently (class mix changes).
    std::function<QString(int, SeededRandom &)> regionOf;
};

inline std::shared_ptr<TraceStore> makePopulation(const PopulationSpec &spec)
{
    SeededRandom random(spec.seed);
    TraceBuilder builder;
    double clock = 0.0;
    for (int i = 0; i < spec.requests; ++i) {
        clock += random.exponential(spec.meanGapMs);
        const QString region = spec.regionOf ? spec.regionOf(i, random) : spec.regions[i % spec.regions.size()];
        TestRequest request;
        request.sendMs = clock;
        double queue = random.lognormal(std::log(80.0), 0.6);
        if (region == spec.queueScaledIn)
            queue *= spec.queueFactor;
        request.phasesMs = {random.uniform(5.0, 15.0),    random.uniform(2.0, 8.0),   queue,
                            random.uniform(50.0, 150.0),  random.uniform(10.0, 30.0), random.uniform(5.0, 15.0),
                            random.uniform(500.0, 1500.0)};
        // Whole ms keep every stamp an exact number of ns.
        for (double &phase : request.phasesMs)
            phase = std::round(phase * 1000.0) / 1000.0;
        request.sendMs = std::round(request.sendMs * 1000.0) / 1000.0;
        request.promptTokens = qint32(std::round(random.uniform(100.0, 2000.0) * spec.promptFactor));
        request.outputTokens = qint32(random.uniform(50.0, 500.0));
        request.with(QStringLiteral("region"), region);
        builder.add(request);
    }
    return builder.store();
}
