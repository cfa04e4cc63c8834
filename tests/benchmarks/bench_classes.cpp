// Class table and exceedance analysis on a synthetic trace of 1M requests,
// against a naive reference in the same run: the reference gathers each
// class's values by scanning the rows and sorts each class on its own; the
// product reads the metric's rows in pre-sorted order (sorted once per
// metric and boundary) and splits them by a counting pass.
//
//   bench_classes [REQUESTS | TRACE.jsonl] [REPEATS]
//
// With a trace file the same recomputes run on its requests, loaded as the
// GUI loads them (every attribute): bench_duckdb.py --recompute compares
// them with DuckDB answering from a table already in memory.
//
// Prints milliseconds per recompute (median of REPEATS) and the ratio.

#include "analysis/classes/ClassCellRows.h"
#include "analysis/classes/ClassColumn.h"
#include "analysis/classes/ClassFilter.h"
#include "analysis/classes/ClassTable.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "analysis/requests/RequestSlice.h"
#include "analysis/stats/ColumnCache.h"
#include "analysis/stats/Percentile.h"
#include "io/SeedJsonlLoader.h"
#include "store/TraceStore.h"

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>

namespace {

// Same shape as tracelane-gen: chat and documents, three regions, two
// priorities, cache status, a shared queue with bursts.
std::shared_ptr<TraceStore> syntheticTrace(qsizetype requests)
{
    auto store = std::make_shared<TraceStore>();
    auto &table = store->requests;
    table.reserve(requests, requests * 12);
    std::mt19937_64 rng(42);
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
        serverFreeAt = ms[3] + prefill * 0.15;
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
        set(QStringLiteral("cached_prefix"), cached ? QStringLiteral("true") : QStringLiteral("false"));
        set(QStringLiteral("workload_class"), document ? QStringLiteral("document") : QStringLiteral("chat"));
        table.finishRow();
    }
    return store;
}

double medianMs(int repeats, const std::function<void()> &work)
{
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        work();
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// The naive way: per class, collect the values by scanning every row, sort,
// take the four percentiles.
double naiveTable(std::span<const double> values, std::span<const ClassColumn> columns, const RequestSlice &slice)
{
    const qint64 second = columns.size() == 2 ? columns[1].classCount() : 1;
    double checksum = 0.0;
    for (qint64 a = 0; a < columns[0].classCount(); ++a) {
        for (qint64 b = 0; b < second; ++b) {
            std::vector<double> cell;
            for (size_t row = 0; row < values.size(); ++row) {
                if (slice.contains(qsizetype(row)) && columns[0].codes[row] == quint32(a)
                    && (columns.size() == 1 || columns[1].codes[row] == quint32(b)) && !std::isnan(values[row]))
                    cell.push_back(values[row]);
            }
            std::sort(cell.begin(), cell.end());
            for (const double q : kClassQuantiles)
                checksum += cell.empty() ? 0.0 : Percentile::ofSorted(cell, q);
        }
    }
    return checksum;
}

ClassColumn column(const RequestTable &table, const QString &key)
{
    ClassDimension dimension;
    classDimensionFromKey(table, key, &dimension);
    return ClassColumn::build(table, dimension);
}

} // namespace

int main(int argc, char *argv[])
{
    const QString source = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    const bool fromFile = source.endsWith(QLatin1String(".jsonl"));
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
    std::shared_ptr<TraceStore> store;
    if (fromFile) {
        std::printf("loading %s...\n", argv[1]);
        LoadResult loaded = SeedJsonlLoader::load(source, LoadOptions{}, nullptr);
        if (!loaded.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(loaded.fatalError));
            return 1;
        }
        store = loaded.store;
    } else {
        const qsizetype count = source.isEmpty() ? 1'000'000 : source.toLongLong();
        std::printf("building %lld synthetic requests...\n", static_cast<long long>(count));
        store = syntheticTrace(count);
    }
    const RequestTable &table = store->requests;
    const qsizetype requests = table.rowCount();
    ColumnCache cache(store);

    QElapsedTimer once;
    once.start();
    const auto ttft = cache.metric(Metric::Ttft, Boundary::Client);
    const double sortMs = double(once.nsecsElapsed()) / 1e6;
    std::printf("TTFT column computed and sorted once: %.1f ms\n\n", sortMs);

    const RequestSlice all = RequestSlice::all(requests);
    ClassFilter interactive;
    interactive.add({QStringLiteral("priority"), QStringLiteral("interactive")});
    ClassTableSpec spec;

    struct Case
    {
        const char *name;
        QStringList by;
        bool filtered;
    };
    const std::vector<Case> cases = {
        {"dimension change: region", {QStringLiteral("region")}, false},
        {"dimension change: region x prompt_band", {QStringLiteral("region"), QStringLiteral("prompt_band")}, false},
        {"filter change: priority=interactive, by cached_prefix", {QStringLiteral("cached_prefix")}, true},
    };
    std::printf("%-58s %12s %12s %8s\n", "recompute on 1 table change", "Tracelane", "naive", "ratio");
    for (const auto &item : cases) {
        std::vector<ClassColumn> columns;
        RequestSlice slice = all;
        // What a change costs in the product: build the dimension columns (or
        // apply the filter) and recompute the table, CDFs included.
        const double product = medianMs(repeats, [&] {
            columns.clear();
            for (const QString &key : item.by)
                columns.push_back(column(table, key));
            slice = item.filtered ? interactive.apply(table) : all;
            const ClassTable result = computeClassTable(*ttft, columns, slice, spec);
            if (result.cells.empty())
                std::abort();
        });
        const double naive = medianMs(std::max(1, repeats / 2), [&] {
            if (naiveTable(ttft->values, columns, slice) == 0.0)
                std::abort();
        });
        std::printf("%-58s %9.1f ms %9.1f ms %7.1fx\n", item.name, product, naive, naive / product);
        // The Classes dock also keeps each cell's rows, so that picking a cell
        // filters without another pass.
        const ClassTable shown = computeClassTable(*ttft, columns, slice, spec);
        const double rows = medianMs(repeats, [&] {
            if (classCellRows(shown, columns, slice).size() != shown.cells.size())
                std::abort();
        });
        std::printf("%-58s %9.1f ms\n", "  + rows of every cell (Classes dock)", rows);
    }

    {
        // The question bench_duckdb.py --recompute asks DuckDB: p50-p99 TTFT
        // and counts by region, no CDF.
        ClassTableSpec bare;
        bare.withCdf = false;
        const double ms = medianMs(repeats, [&] {
            const std::vector<ClassColumn> columns{column(table, QStringLiteral("region"))};
            if (computeClassTable(*ttft, columns, all, bare).cells.empty())
                std::abort();
        });
        std::printf("%-58s %9.1f ms\n", "percentiles by region, no CDF (bench_duckdb --recompute)", ms);
    }

    std::printf("\nexceedance analysis (p95 TTFT, every feature compared):\n");
    ExceedanceSpec exceed;
    QElapsedTimer first;
    first.start();
    const auto analysis = ExceedanceAnalysis::compute(cache, all, exceed);
    std::printf("  first run (sorts every feature column once): %.1f ms, set of %lld\n",
                double(first.nsecsElapsed()) / 1e6, static_cast<long long>(analysis.set.size()));
    const double again = medianMs(repeats, [&] { ExceedanceAnalysis::compute(cache, all, exceed); });
    std::printf("  later runs (threshold or slice change): %.1f ms\n", again);
    const double step = medianMs(repeats * 20, [&] { analysis.member(table, 1); });
    std::printf("  one N/P step (member vs rest on every feature): %.3f ms\n", step);
    return 0;
}
