// Before/after comparison of two synthetic traces of 1M requests each, split
// by two class dimensions, against a naive reference in the same run.
//
//   bench_compare [REQUESTS] [REPEATS]
//
// Product: ComparisonSamples::prepare (one pass per side, both sides in
// parallel, radix sorts, per-class runs by a counting pass) and then
// TraceComparison::evaluate; a percentile change only re-evaluates.
// Reference: what a straightforward implementation does on every question:
// per class and side, scan the rows for the class's values and std::sort
// them; sort every phase column and both token columns; sort arrival and
// departure events for the peak in flight; one thread.
//
// Prints the median of REPEATS (wall clock and process CPU time, all threads),
// the ratios, and the peak RSS.

#include "analysis/classes/ClassColumn.h"
#include "analysis/compare/ComparisonSamples.h"
#include "analysis/compare/TraceComparison.h"
#include "analysis/requests/Metric.h"
#include "analysis/stats/Percentile.h"
#include "analysis/stats/QuantileInterval.h"
#include "analysis/stats/TwoSampleDistance.h"
#include "store/TraceStore.h"

#include <QElapsedTimer>

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>

namespace {

// Chat and documents, three regions, two priorities, a shared queue with
// bursts; the candidate's server admits work `speedup` times faster.
std::shared_ptr<TraceStore> syntheticTrace(qsizetype requests, std::uint64_t seed, double speedup)
{
    auto store = std::make_shared<TraceStore>();
    store->format = QStringLiteral("synthetic");
    auto &table = store->requests;
    table.reserve(requests, requests * 12);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::lognormal_distribution<double> chatPrompt(6.0, 0.6);
    std::lognormal_distribution<double> docPrompt(8.8, 0.5);
    std::lognormal_distribution<double> chatOutput(5.0, 0.7);
    std::lognormal_distribution<double> docOutput(5.8, 0.6);
    std::exponential_distribution<double> gap(1.0 / 8.0);
    const std::array<QString, 3> regions
        = {QStringLiteral("eu-west"), QStringLiteral("us-east"), QStringLiteral("ap-south")};
    const std::array<double, 3> rtt = {12.0, 28.0, 85.0};
    double clock = 0.0;
    double serverFreeAt = 0.0;
    for (qsizetype i = 0; i < requests; ++i) {
        clock += (i / 200) % 10 == 0 ? gap(rng) * 0.08 : gap(rng);
        const bool document = unit(rng) < 0.1;
        const size_t region = unit(rng) < 0.5 ? 0 : (unit(rng) < 0.7 ? 1 : 2);
        const bool cached = unit(rng) < (document ? 0.2 : 0.6);
        const int prompt = std::max(1, int(document ? docPrompt(rng) : chatPrompt(rng)));
        const int output = std::max(1, int(document ? docOutput(rng) : chatOutput(rng)));
        const double trip = rtt[region] * (0.8 + 0.4 * unit(rng));
        std::array<double, kStampCount> ms{};
        ms[0] = clock;
        ms[1] = ms[0] + trip / 2.0;
        ms[2] = ms[1] + 3.0 + 4.0 * unit(rng);
        const double prefill = (cached ? 0.25 : 1.0) * prompt * 0.05 + 8.0;
        ms[3] = std::max(ms[2], serverFreeAt);
        ms[4] = ms[3] + prefill;
        serverFreeAt = ms[3] + prefill * 0.15 / speedup;
        ms[5] = ms[4] + 9.0 + 3.0 * unit(rng);
        ms[6] = ms[5] + trip / 2.0;
        ms[7] = ms[6] + (output - 1) * (18.0 + 8.0 * unit(rng));
        const std::string id = "req-" + std::to_string(i);
        RequestTable::Row row;
        row.id = id;
        row.promptTokens = prompt;
        row.outputTokens = output;
        for (int s = 0; s < kStampCount; ++s)
            row.stamps[size_t(s)] = qint64(ms[size_t(s)] * 1e6);
        table.appendRow(row);
        const auto set = [&](const QString &name, const QString &value) {
            auto &column = table.attributeColumn(name, AttributeColumn::Kind::Categorical);
            column.padTo(table.rowCount() - 1);
            column.appendText(value);
        };
        set(QStringLiteral("region"), regions[region]);
        set(QStringLiteral("priority"), document ? QStringLiteral("batch") : QStringLiteral("interactive"));
        table.finishRow();
    }
    return store;
}

double cpuMs()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

// Median wall-clock and median process CPU time (all threads) of REPEATS
// runs. On a machine shared with other work the CPU time is the steadier
// figure; wall = CPU / threads on an idle machine.
struct Timing
{
    double wallMs = 0.0;
    double cpuMs = 0.0;
};

Timing median(int repeats, const std::function<void()> &work)
{
    std::vector<double> walls;
    std::vector<double> cpus;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        const double cpuBefore = cpuMs();
        timer.start();
        work();
        walls.push_back(double(timer.nsecsElapsed()) / 1e6);
        cpus.push_back(cpuMs() - cpuBefore);
    }
    std::sort(walls.begin(), walls.end());
    std::sort(cpus.begin(), cpus.end());
    return {walls[walls.size() / 2], cpus[cpus.size() / 2]};
}

long peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

// One side, the naive way: everything a comparison reports, sorted from scratch.
struct NaiveSide
{
    std::vector<std::vector<double>> cells;
    std::vector<double> overall;
    std::vector<std::vector<double>> phases;
    std::vector<double> prompt;
    std::vector<double> output;
    qint64 peak = 0;
};

NaiveSide naiveSide(const TraceStore &store, const std::vector<ClassColumn> &columns, Metric metric)
{
    NaiveSide side;
    const RequestTable &table = store.requests;
    const auto values = metricColumnMs(table, metric, Boundary::Client);
    for (qsizetype a = 0; a < columns[0].classCount(); ++a) {
        for (qsizetype b = 0; b < columns[1].classCount(); ++b) {
            std::vector<double> cell;
            for (size_t row = 0; row < values.size(); ++row) {
                if (columns[0].codes[row] == quint32(a) && columns[1].codes[row] == quint32(b)
                    && !std::isnan(values[row]))
                    cell.push_back(values[row]);
            }
            std::sort(cell.begin(), cell.end());
            side.cells.push_back(std::move(cell));
        }
    }
    side.overall = Percentile::sortedFinite(values);
    for (const Phase phase : kAllPhases)
        side.phases.push_back(Percentile::sortedFinite(metricColumnMs(table, phaseMetric(phase), Boundary::Client)));
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        side.prompt.push_back(table.promptTokens(row));
        side.output.push_back(table.outputTokens(row));
    }
    std::sort(side.prompt.begin(), side.prompt.end());
    std::sort(side.output.begin(), side.output.end());
    std::vector<std::pair<qint64, int>> events;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        events.emplace_back(table.stamp(row, Stamp::ClientSend), +1);
        events.emplace_back(table.stamp(row, Stamp::LastTokenClient), -1);
    }
    std::sort(events.begin(), events.end());
    qint64 inFlight = 0;
    for (const auto &event : events)
        side.peak = std::max(side.peak, inFlight += event.second);
    return side;
}

// Percentiles with intervals of every cell, phase percentiles and the KS
// distances: what the naive way computes once its samples are sorted.
double naiveAnswer(const NaiveSide &base, const NaiveSide &cand, double q)
{
    double checksum = 0.0;
    const auto estimate = [&](const std::vector<double> &sorted) {
        const auto interval = QuantileInterval::forSample(qint64(sorted.size()), q);
        checksum += Percentile::ofSorted(sorted, q);
        if (interval.formed)
            checksum += sorted[size_t(interval.lowerRank - 1)] + sorted[size_t(interval.upperRank - 1)];
    };
    for (size_t i = 0; i < base.cells.size(); ++i) {
        estimate(base.cells[i]);
        estimate(cand.cells[i]);
    }
    estimate(base.overall);
    estimate(cand.overall);
    for (size_t i = 0; i < base.phases.size(); ++i)
        checksum += Percentile::ofSorted(base.phases[i], q) + Percentile::ofSorted(cand.phases[i], q);
    checksum += KolmogorovSmirnov::of(base.prompt, cand.prompt).d + KolmogorovSmirnov::of(base.output, cand.output).d;
    return checksum + double(base.peak + cand.peak);
}

} // namespace

int main(int argc, char *argv[])
{
    const qsizetype requests = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
    std::printf("generating two traces of %lld requests...\n", static_cast<long long>(requests));
    // A server near saturation, and the candidate that admits work 25% faster.
    std::shared_ptr<const TraceStore> baseline = syntheticTrace(requests, 42, 1.6);
    std::shared_ptr<const TraceStore> candidate = syntheticTrace(requests, 43, 2.0);
    std::printf("peak RSS after generating: %ld MB\n", peakRssMb());

    ComparisonSpec spec;
    spec.by = {QStringLiteral("region"), QStringLiteral("priority")};
    std::shared_ptr<const ComparisonSamples> samples;
    TraceComparison comparison;
    const Timing prepared = median(repeats, [&] {
        samples = ComparisonSamples::prepare(ComparisonSide::whole(baseline, QStringLiteral("baseline")),
                                             ComparisonSide::whole(candidate, QStringLiteral("candidate")), spec);
        comparison = TraceComparison::evaluate(*samples, spec);
    });
    if (!comparison.ok()) {
        std::printf("comparison failed: %s\n", qPrintable(comparison.error));
        return 1;
    }
    std::printf("p95 TTFT %.3f -> %.3f ms (%s), %zu classes, stop rule: %s\n",
                comparison.overall.difference.baseline.value, comparison.overall.difference.candidate.value,
                qPrintable(PercentileDifference::verdictLabel(comparison.overall.difference.verdict)),
                comparison.cells.size(), qPrintable(ComparisonStopRule::outcomeLabel(comparison.stopRule.outcome)));

    double q = 0.95;
    const Timing recompute = median(repeats * 3, [&] {
        q = q == 0.95 ? 0.99 : 0.95; // alternate, so every run is a change
        ComparisonSpec changed = spec;
        changed.q = q;
        comparison = TraceComparison::evaluate(*samples, changed);
    });

    // The naive reference, same traces, same split.
    std::vector<ClassColumn> baseColumns;
    std::vector<ClassColumn> candColumns;
    for (const QString &key : spec.by) {
        ClassDimension dimension;
        classDimensionFromKey(baseline->requests, key, &dimension);
        baseColumns.push_back(ClassColumn::build(baseline->requests, dimension));
        candColumns.push_back(ClassColumn::build(candidate->requests, dimension));
    }
    double checksum = 0.0;
    NaiveSide naiveBase;
    NaiveSide naiveCand;
    const Timing naive = median(repeats, [&] {
        naiveBase = naiveSide(*baseline, baseColumns, Metric::Ttft);
        naiveCand = naiveSide(*candidate, candColumns, Metric::Ttft);
        checksum += naiveAnswer(naiveBase, naiveCand, 0.95);
    });
    // Without kept samples, a percentile change means doing it all again.
    const Timing naiveRecompute = naive;
    const double sameOverall = Percentile::ofSorted(naiveBase.overall, 0.95);
    ComparisonSpec p95 = spec;
    comparison = TraceComparison::evaluate(*samples, p95);
    std::printf("check: overall p95 baseline %.6f (product) vs %.6f (reference)%s\n",
                comparison.overall.difference.baseline.value, sameOverall,
                comparison.overall.difference.baseline.value == sameOverall ? "" : "  MISMATCH");

    std::printf("\n%-44s %24s %24s %14s\n", "median, 2 x requests by region x priority", "Tracelane wall / CPU",
                "naive wall / CPU", "ratio wall/CPU");
    const auto row = [](const char *what, Timing ours, Timing theirs) {
        std::printf("%-44s %11.1f / %8.1f ms %11.1f / %8.1f ms %6.1fx / %5.1fx\n", what, ours.wallMs, ours.cpuMs,
                    theirs.wallMs, theirs.cpuMs, theirs.wallMs / ours.wallMs, theirs.cpuMs / ours.cpuMs);
    };
    row("compare (prepare + evaluate) after load", prepared, naive);
    row("recompute after a percentile change", recompute, naiveRecompute);
    std::printf("peak RSS: %ld MB (checksum %.3f)\n", peakRssMb(), checksum);
    return 0;
}
