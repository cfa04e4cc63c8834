// Workflow swimlane benchmark: 100,000 generated agent workflows of 30 spans
// (3M spans) built in memory through the span loaders' builder, then
//  - lane segments: every workflow's critical path by kind and its off-path
//    work (WorkflowLanes::build), on 1 and 2 threads; the reference in the
//    same run analyses each workflow as the Workflow dock does one at a time
//    (WorkflowAnalysis with labels, then WorkTimeline);
//  - paint: the full view (aggregate rows, dominant kind per pixel), a
//    1,000-lane zoom and a 100-lane zoom (single lanes, path and off-path
//    band) on a 1600x900 canvas; the reference is a naive painter in the same
//    run (one QPainter::fillRect per segment of every lane, no level of
//    detail, no batching).
// Prints times, memory and ratios. Never part of ctest.
//
//   tracelane-bench-workflowlanes [WORKFLOWS] [--frames N] [--skip-reference]

#include "LaneRaster.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneColors.h"
#include "ViewState.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/lanes/WorkflowLanes.h"
#include "analysis/workflows/WorkTimeline.h"
#include "analysis/workflows/WorkflowAnalysis.h"
#include "io/SpanTraceBuilder.h"
#include "store/TraceStore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <string>

namespace {

using SwimlaneCoordinates::LaneWindow;
constexpr qint64 kMs = 1'000'000;

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

double residentMb(const char *field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(status, line)) {
        if (line.rfind(prefix, 0) == 0)
            return std::stod(line.substr(prefix.size())) / 1024.0;
    }
    return 0.0;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(QLatin1Char(' '), 0, 2)
                                          : QStringLiteral("unknown");
}

std::string hex(quint64 value, int digits)
{
    char text[40];
    std::snprintf(text, sizeof text, "%0*llx", digits, static_cast<unsigned long long>(value));
    return text;
}

// 100,000 agent workflows, one every 30 ms (50 minutes), each 30 spans:
// an agent root; four rounds of (model call with vLLM latencies -> tool that
// calls a service over HTTP -> retrieval with two parallel lookups, one of
// them off the path); a final model call. 2-20 s each.
std::shared_ptr<TraceStore> generate(qint32 workflows, quint64 seed)
{
    auto store = std::make_shared<TraceStore>();
    SpanTraceBuilder builder(*store, QStringLiteral("generated"));
    std::mt19937_64 random(seed);
    const auto uniform
        = [&random](qint64 lo, qint64 hi) { return std::uniform_int_distribution<qint64>(lo, hi)(random); };
    SpanRecord record;
    quint64 nextSpan = 1;
    const auto add = [&](const std::string &trace, quint64 id, quint64 parent, const char *name, const char *operation,
                         SpanKind kind, qint64 start, qint64 end) -> SpanRecord & {
        record.clear();
        record.traceId = trace;
        record.spanId = hex(id, 16);
        if (parent)
            record.parentSpanId = hex(parent, 16);
        record.name = name;
        record.service = "agent";
        record.kind = kind;
        record.start = start;
        record.end = end;
        if (operation) {
            auto &attribute = record.attributes.add();
            attribute.key = "gen_ai.operation.name";
            attribute.value.type = AttributeValue::Type::String;
            attribute.value.text = operation;
        }
        return record;
    };
    const auto seconds = [&record](const char *key, qint64 ns) {
        auto &attribute = record.attributes.add();
        attribute.key = key;
        attribute.value.type = AttributeValue::Type::Double;
        attribute.value.number = double(ns) / 1e9;
        attribute.value.text = std::to_string(attribute.value.number);
    };
    const auto modelCall = [&](const std::string &trace, quint64 root, qint64 at) {
        const qint64 queue = uniform(5, 400) * kMs;
        const qint64 prefill = uniform(20, 300) * kMs;
        const qint64 first = queue + prefill + uniform(10, 60) * kMs;
        const qint64 end = at + first + uniform(200, 2500) * kMs;
        add(trace, nextSpan++, root, "chat", "chat", SpanKind::Client, at, end);
        seconds("gen_ai.latency.time_in_queue", queue);
        seconds("gen_ai.latency.time_in_model_prefill", prefill);
        seconds("gen_ai.latency.time_to_first_token", first);
        seconds("gen_ai.latency.e2e", end - at);
        builder.addSpan(record);
        return end;
    };
    const qint64 epoch = 1'700'000'000'000'000'000LL;
    for (qint32 w = 0; w < workflows; ++w) {
        const std::string trace = hex(quint64(w) * 2654435761ULL + 1, 32);
        const qint64 start = epoch + qint64(w) * 30 * kMs + uniform(0, 10) * kMs;
        const quint64 root = nextSpan++;
        std::vector<SpanRecord> later;
        qint64 at = start + uniform(1, 20) * kMs;
        // Children first, the root last (its end is known then).
        for (int round = 0; round < 4; ++round) {
            at = modelCall(trace, root, at) + uniform(1, 10) * kMs;
            const quint64 tool = nextSpan++;
            const qint64 call = at + uniform(1, 5) * kMs;
            const qint64 served = call + uniform(1, 5) * kMs;
            const qint64 handled = served + uniform(20, 600) * kMs;
            const qint64 returned = handled + uniform(1, 5) * kMs;
            const qint64 toolEnd = returned + uniform(1, 20) * kMs;
            const quint64 client = nextSpan++;
            builder.addSpan(add(trace, client, tool, "GET /quote", nullptr, SpanKind::Client, call, returned));
            builder.addSpan(
                add(trace, nextSpan++, client, "quote handler", nullptr, SpanKind::Server, served, handled));
            builder.addSpan(
                add(trace, tool, root, "execute_tool quote", "execute_tool", SpanKind::Internal, at, toolEnd));
            at = toolEnd + uniform(1, 10) * kMs;
            const quint64 retrieval = nextSpan++;
            const qint64 slow = uniform(50, 500) * kMs;
            const qint64 fast = uniform(10, 49) * kMs;
            builder.addSpan(
                add(trace, nextSpan++, retrieval, "vector search", "retrieval", SpanKind::Client, at, at + slow));
            builder.addSpan(
                add(trace, nextSpan++, retrieval, "keyword search", "retrieval", SpanKind::Client, at, at + fast));
            builder.addSpan(add(trace, retrieval, root, "retrieve", "retrieval", SpanKind::Internal, at, at + slow));
            at += slow + uniform(1, 10) * kMs;
        }
        at = modelCall(trace, root, at);
        builder.addSpan(add(trace, root, 0, "invoke_agent planner", "invoke_agent", SpanKind::Server, start,
                            at + uniform(1, 30) * kMs));
    }
    builder.finish();
    return store;
}

// Naive reference painter: one QPainter::fillRect per segment (path and
// off-path) of every workflow lane on screen, no level of detail, no
// batching by colour.
double paintNaively(const LaneLayout &layout, const WorkflowLanes &lanes, TimeWindow window, LaneWindow shown,
                    QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    const SwimlaneColors colors = SwimlaneColors::fromPalette(QApplication::palette());
    QElapsedTimer clock;
    clock.start();
    image.fill(colors.background);
    QPainter painter(&image);
    const double laneHeight = size.height() / shown.count;
    const qint64 first = qint64(shown.first);
    const qint64 last = qMin(layout.slotCount(), qint64(std::ceil(shown.first + shown.count)));
    const double pxPerMs = double(size.width()) / double(window.duration()) * 1e6;
    for (qint64 slot = first; slot < last; ++slot) {
        const qint32 lane = lanes.laneOfRow(layout.rowAt(slot));
        if (lane < 0)
            continue;
        const double y = (double(slot) - shown.first) * laneHeight;
        const double base = double(lanes.origin(lane) - window.begin) / 1e6 * pxPerMs;
        const auto draw = [&](const WorkflowLanes::Segments &segments, double top, double height, bool faint) {
            for (qint32 i = 0; i < segments.count; ++i) {
                const double x0 = base + double(segments.begin[i]) * pxPerMs;
                const double x1 = base + double(segments.end[i]) * pxPerMs;
                const auto &palette = faint ? colors.faintKinds : colors.kinds;
                painter.fillRect(QRectF(x0, top, x1 - x0, height), QColor(palette[size_t(segments.kind[i])]));
            }
        };
        draw(lanes.path(lane), y, qMax(1.0, laneHeight * 0.6), false);
        draw(lanes.offPath(lane), y + laneHeight * 0.6, qMax(1.0, laneHeight * 0.4), true);
    }
    painter.end();
    return double(clock.nsecsElapsed()) / 1e6;
}

struct PaintFigures
{
    double render = 0.0; // building the frame image (a worker does this for the full view)
    double gui = 0.0;    // GUI-thread paint when the window just changed
    double cached = 0.0; // GUI-thread paint of an unchanged window + overlay
};

PaintFigures measurePaint(ViewState &state, SwimlaneCanvas &canvas, TimeWindow window, LaneWindow lanes, int frames)
{
    canvas.setLaneWindow(lanes);
    std::vector<double> render;
    std::vector<double> gui;
    std::vector<double> cached;
    QImage target(canvas.size(), QImage::Format_RGB32);
    for (int i = 0; i < frames; ++i) {
        state.setTimeWindow({window.begin + i, window.end + i}); // a new window: the frame is rebuilt
        LaneFrameKey key;
        key.layout = canvas.laneLayout();
        key.workflows = canvas.workflowLanes();
        key.store = state.store();
        key.axis = state.timeAxis();
        key.window = state.timeWindow();
        key.lanes = canvas.laneWindow();
        key.size = canvas.size();
        key.tickOrigin = canvas.tickOrigin();
        key.colors = SwimlaneColors::fromPalette(canvas.palette());
        QElapsedTimer clock;
        clock.start();
        const QImage frame = LaneRaster::render(key);
        render.push_back(double(clock.nsecsElapsed()) / 1e6);
        clock.restart();
        canvas.render(&target);
        gui.push_back(double(clock.nsecsElapsed()) / 1e6);
        while (canvas.isRenderingFrame())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        QCoreApplication::processEvents();
        canvas.render(&target);
        clock.restart();
        canvas.render(&target);
        cached.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    return {median(render), median(gui), median(cached)};
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    qint32 workflows = 100'000;
    int frames = 9;
    bool reference = true;
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QStringLiteral("--frames") && i + 1 < args.size())
            frames = args[++i].toInt();
        else if (args[i] == QStringLiteral("--skip-reference"))
            reference = false;
        else
            workflows = args[i].toInt();
    }
    std::printf("load average at start: %s\n", qPrintable(loadAverage()));
    QElapsedTimer clock;
    clock.start();
    const std::shared_ptr<TraceStore> store = generate(workflows, 42);
    std::printf("generated %lld workflows, %lld spans, in %.1f s (span builder, linker, summaries); RSS %.0f MB\n",
                static_cast<long long>(store->workflows.rowCount()), static_cast<long long>(store->spans.rowCount()),
                double(clock.nsecsElapsed()) / 1e9, residentMb("VmRSS"));

    // --- lane segments -----------------------------------------------------
    std::shared_ptr<const WorkflowLanes> lanes;
    for (const int threads : {1, 2}) {
        std::vector<double> wall;
        std::vector<double> cpu;
        for (int run = 0; run < 3; ++run) {
            const std::clock_t cpuStart = std::clock();
            clock.restart();
            auto built = std::make_shared<const WorkflowLanes>(WorkflowLanes::build(*store, nullptr, threads));
            wall.push_back(double(clock.nsecsElapsed()) / 1e6);
            cpu.push_back(double(std::clock() - cpuStart) * 1000.0 / CLOCKS_PER_SEC);
            lanes = std::move(built);
        }
        std::printf("lane segments, %d thread(s): %.0f ms wall, %.0f ms CPU (median of 3); %lld segments\n", threads,
                    median(wall), median(cpu), static_cast<long long>(lanes->segmentCount()));
    }
    std::printf("  lane segments memory: %.1f MB = %.1f bytes/span, %.1f bytes/segment\n",
                double(lanes->memoryBytes()) / 1e6, double(lanes->memoryBytes()) / double(store->spans.rowCount()),
                double(lanes->memoryBytes()) / double(lanes->segmentCount()));
    if (reference) {
        clock.restart();
        qint64 segments = 0;
        for (qint32 w = 0; w < qint32(store->workflows.rowCount()); ++w) {
            const WorkflowAnalysis analysis = WorkflowAnalysis::analyse(*store, w);
            if (!analysis.ok())
                continue;
            const WorkTimeline timeline = WorkTimeline::of(*analysis.schedule, analysis.path);
            segments += qint64(timeline.path.size() + timeline.offPath.size());
        }
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        std::printf("  reference, each workflow analysed as the Workflow dock does (labels, slack), one thread:"
                    " %.0f ms (%lld segments)\n",
                    ms, static_cast<long long>(segments));
    }

    // --- paint ---------------------------------------------------------------
    ViewState state;
    state.setStore(store);
    clock.restart();
    LaneOrder order;
    order.key = LaneOrder::Key::Metric;
    order.metric = Metric::E2e;
    order.descending = true;
    auto layout = std::make_shared<const LaneLayout>(LaneLayout::build(store->requests, order, nullptr));
    std::printf("\nlane layout by E2E (off the GUI thread): %.0f ms for %lld lanes\n",
                double(clock.nsecsElapsed()) / 1e6, static_cast<long long>(layout->slotCount()));
    SwimlaneCanvas canvas(&state);
    canvas.resize(1600, 900);
    canvas.setLaneLayout(layout);
    canvas.setWorkflowLanes(lanes);
    canvas.setBackgroundFrameLanes(LaneRaster::backgroundFrameLanes(true)); // as SwimlaneView sets it
    std::vector<qint32> members;
    for (qint32 row = 0; row < qint32(store->requests.rowCount()); row += 20)
        members.push_back(row);
    state.setExceedance(
        {Metric::E2e, Boundary::Client, 0.0, QStringLiteral("every 20th"), RowSet::fromSortedUnique(members)});
    state.selectRow(qint32(store->requests.rowCount() / 2));

    const TimeWindow bounds = canvas.timeBounds();
    const LaneWindow all{0.0, double(layout->slotCount())};
    const PaintFigures full = measurePaint(state, canvas, bounds, all, frames);
    const qint64 mid = layout->slotCount() / 2;
    const auto zoomOn = [&](qint64 count) {
        qint64 begin = std::numeric_limits<qint64>::max();
        qint64 end = std::numeric_limits<qint64>::min();
        for (qint64 slot = mid; slot < mid + count; ++slot) {
            begin = std::min(begin, layout->origin(slot));
            end = std::max(end, layout->origin(slot) + 25'000 * kMs);
        }
        return TimeWindow{begin - 1000 * kMs, end};
    };
    const LaneWindow thousand{double(mid), 1000.0};
    const TimeWindow thousandWindow = zoomOn(1000);
    const PaintFigures zoom = measurePaint(state, canvas, thousandWindow, thousand, frames);
    const LaneWindow hundred{double(mid), 100.0};
    const TimeWindow hundredWindow = zoomOn(100);
    const PaintFigures single = measurePaint(state, canvas, hundredWindow, hundred, frames);

    std::printf("\nworkflow swimlane paint, 1600x900 canvas, %lld workflow lanes (median of %d frames)\n",
                static_cast<long long>(layout->slotCount()), frames);
    std::printf("  full view:       GUI thread %6.2f ms new window, %5.2f ms unchanged (goal <= 16 ms);"
                " frame image %6.1f ms on a worker\n",
                full.gui, full.cached, full.render);
    std::printf("  1,000-lane zoom: GUI thread %6.2f ms new window, %5.2f ms unchanged\n", zoom.gui, zoom.cached);
    std::printf("  100-lane zoom:   GUI thread %6.2f ms new window, %5.2f ms unchanged (single lanes, labels)\n",
                single.gui, single.cached);
    if (reference) {
        const double naiveFull = paintNaively(*layout, *lanes, bounds, all, canvas.size());
        const double naiveZoom = paintNaively(*layout, *lanes, thousandWindow, thousand, canvas.size());
        const double naiveSingle = paintNaively(*layout, *lanes, hundredWindow, hundred, canvas.size());
        std::printf("  naive reference on the GUI thread (fillRect per segment of every lane, no LOD, no batching):\n");
        std::printf("    full view %.0f ms -> %.0fx the GUI-thread paint, %.1fx the worker's frame;"
                    " 1,000-lane zoom %.1f ms -> %.1fx; 100-lane zoom %.2f ms -> %.1fx\n",
                    naiveFull, naiveFull / full.gui, naiveFull / full.render, naiveZoom, naiveZoom / zoom.gui,
                    naiveSingle, naiveSingle / single.gui);
    }
    std::printf("\npeak RSS %.0f MB; load average at end: %s\n", residentMb("VmHWM"), qPrintable(loadAverage()));
    return 0;
}
