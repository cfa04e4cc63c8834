// GUI benchmark: swimlane paint time at 1M requests (full view and a
// 1,000-lane zoom), request-table sort time for 1M rows, and GUI-thread
// responsiveness while the main window loads a 1M-record trace. Every figure
// is printed next to a naive reference measured in the same run.
//
//   tracelane-bench-gui TRACE.jsonl [--frames N] [--skip-naive] [--only-sort]
//
// Make the trace with: tracelane-gen /tmp/bench-1m.jsonl 1000000

#include "LaneRaster.h"
#include "MainWindow.h"
#include "RequestTableModel.h"
#include "RequestTablePanel.h"
#include "SwimlaneCanvas.h"
#include "SwimlaneColors.h"
#include "ViewState.h"
#include "analysis/lanes/LaneActivity.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/requests/RequestQuery.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>

#include <time.h>

namespace {

using SwimlaneCoordinates::LaneWindow;

// Names every event that kept the GUI thread busy for more than 25 ms (a
// paint: 8 ms), so a bad probe figure comes with its culprit.
class SlowEventReporter : public QApplication
{
public:
    using QApplication::QApplication;
    bool reporting = false;

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (!reporting)
            return QApplication::notify(receiver, event);
        QElapsedTimer clock;
        clock.start();
        const bool result = QApplication::notify(receiver, event);
        const qint64 ms = clock.elapsed();
        if (ms > (event->type() == QEvent::Paint ? 8 : 25))
            std::printf("    slow event: %lld ms, type %d, receiver %s \"%s\" in %s \"%s\"\n",
                        static_cast<long long>(ms), int(event->type()), receiver->metaObject()->className(),
                        qPrintable(receiver->objectName()),
                        receiver->parent() ? receiver->parent()->metaObject()->className() : "-",
                        receiver->parent() ? qPrintable(receiver->parent()->objectName()) : "");
        return result;
    }
};

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(QLatin1Char(' '), 0, 2)
                                          : QStringLiteral("unknown");
}

// CPU time this thread has used: a gap in the probe that the GUI thread did
// not spend computing was the scheduler's (other processes on shared cores).
qint64 threadCpuNs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

// Naive reference: one QPainter::fillRect per phase of every lane on screen,
// no level of detail, no batching.
double paintEveryLaneNaively(const LaneLayout &layout, TimeWindow window, LaneWindow lanes, QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    const SwimlaneColors colors = SwimlaneColors::fromPalette(QApplication::palette());
    QElapsedTimer clock;
    clock.start();
    image.fill(colors.background);
    QPainter painter(&image);
    const double laneHeight = size.height() / lanes.count;
    const qint64 first = qint64(lanes.first);
    const qint64 last = qMin(layout.slotCount(), qint64(std::ceil(lanes.first + lanes.count)));
    for (qint64 slot = first; slot < last; ++slot) {
        if (layout.isHeader(slot))
            continue;
        const double y = (double(slot) - lanes.first) * laneHeight;
        const float *offsets = layout.offsets(slot);
        for (int s = 0; s + 1 < kStampCount; ++s) {
            const qint64 a = layout.origin(slot) + qint64(double(offsets[s]) * 1e6);
            const qint64 b = layout.origin(slot) + qint64(double(offsets[s + 1]) * 1e6);
            const double x0 = SwimlaneCoordinates::timeToX(a, window, size.width());
            const double x1 = SwimlaneCoordinates::timeToX(b, window, size.width());
            painter.fillRect(QRectF(x0, y, x1 - x0, qMax(1.0, laneHeight)), QColor(colors.categories[size_t(s)]));
        }
    }
    painter.end();
    return double(clock.nsecsElapsed()) / 1e6;
}

// Reference for the aggregate rows: the previous row walk, which turned
// every pixel column of the row's time span into values (finish()) and
// visited each one, reusing the colour of an equal left neighbour. One
// thread, like LaneRaster::render(key, 1) it is compared with.
QImage renderAggregateEveryColumn(const LaneFrameKey &key)
{
    QImage image(key.size, QImage::Format_RGB32);
    image.fill(key.colors.background);
    const LaneLayout &layout = *key.layout;
    const int width = image.width();
    const bool aligned = key.axis == TimeAxis::AlignedAtSend;
    LaneActivity activity(width);
    float rgb[LaneActivity::kCategories][3];
    for (int c = 0; c < LaneActivity::kCategories; ++c) {
        rgb[c][0] = float(qRed(key.colors.categories[size_t(c)]));
        rgb[c][1] = float(qGreen(key.colors.categories[size_t(c)]));
        rgb[c][2] = float(qBlue(key.colors.categories[size_t(c)]));
    }
    auto blend = [](QRgb under, float r, float g, float b, float alpha) {
        auto mix = [alpha](int from, float to) { return int(float(from) + (to - float(from)) * alpha + 0.5f); };
        return qRgb(mix(qRed(under), r), mix(qGreen(under), g), mix(qBlue(under), b));
    };
    for (int py = 0; py < image.height(); ++py) {
        const auto [first, last]
            = SwimlaneCoordinates::lanesInPixelRow(py, key.lanes, double(image.height()), layout.slotCount());
        if (first >= last)
            continue;
        activity.clear();
        activity.addLanes(layout, first, last, aligned, key.window.begin, key.window.duration());
        activity.finish();
        auto *pixels = reinterpret_cast<QRgb *>(image.scanLine(py));
        const float lanes = float(qMax<qint64>(1, activity.laneCount()));
        const float *previous = nullptr;
        QRgb previousUnder = 0;
        QRgb previousColour = 0;
        for (int x = qMax(0, activity.firstTouched()); x <= qMin(width - 1, activity.lastTouched()); ++x) {
            const float *v = activity.binValues(x);
            const QRgb under = pixels[x];
            if (previous && under == previousUnder
                && std::memcmp(v, previous, sizeof(float) * LaneActivity::kCategories) == 0) {
                pixels[x] = previousColour;
                continue;
            }
            float total = 0.0f;
            float r = 0.0f;
            float g = 0.0f;
            float b = 0.0f;
            for (int c = 0; c < LaneActivity::kCategories; ++c) {
                if (v[c] <= 0.0f)
                    continue;
                total += v[c];
                r += v[c] * rgb[c][0];
                g += v[c] * rgb[c][1];
                b += v[c] * rgb[c][2];
            }
            QRgb colour = under;
            if (total > 1e-6f)
                colour = blend(under, r / total, g / total, b / total, 0.3f + 0.7f * std::min(1.0f, total / lanes));
            pixels[x] = colour;
            previous = v;
            previousUnder = under;
            previousColour = colour;
        }
    }
    return image;
}

// Aggregate frame images (one thread) at several lane zooms: the run walk
// (LaneRaster) against the every-column reference above.
void benchAggregateRows(const std::shared_ptr<const LaneLayout> &layout, QSize size, int frames)
{
    std::printf("\naggregate frame image, %dx%d, one thread (median of %d): run walk vs every column\n", size.width(),
                size.height(), frames);
    const qint64 mid = layout->slotCount() / 2;
    for (const qint64 count : {layout->slotCount(), qint64(100'000), qint64(10'000), qint64(1'000)}) {
        if (count > layout->slotCount())
            continue;
        LaneFrameKey key;
        key.layout = layout;
        key.size = size;
        key.colors = SwimlaneColors::fromPalette(QApplication::palette());
        const qint64 first = count == layout->slotCount() ? 0 : mid;
        key.lanes = {double(first), double(count)};
        key.window = count == layout->slotCount()
            ? TimeWindow{layout->traceBegin(), layout->traceEnd()}
            : TimeWindow{layout->origin(first) - 1'000'000'000, layout->origin(first + count - 1) + 10'000'000'000};
        std::vector<double> runs;
        std::vector<double> columns;
        bool same = true;
        for (int i = 0; i < frames; ++i) {
            // Alternate which goes first, so neither always finds warm caches.
            QElapsedTimer clock;
            QImage a;
            QImage b;
            for (int pass = 0; pass < 2; ++pass) {
                clock.start();
                if ((pass + i) % 2 == 0) {
                    a = LaneRaster::render(key, 1);
                    runs.push_back(double(clock.nsecsElapsed()) / 1e6);
                } else {
                    b = renderAggregateEveryColumn(key);
                    columns.push_back(double(clock.nsecsElapsed()) / 1e6);
                }
            }
            if (i == 0) {
                // Same pixels, give or take rounding, apart from the grid
                // lines that only LaneRaster draws.
                int differing = 0;
                for (int y = 0; y < a.height(); ++y) {
                    for (int x = 0; x < a.width(); ++x)
                        differing += a.pixel(x, y) != b.pixel(x, y);
                }
                same = differing < a.height() * 40;
            }
        }
        std::printf("  %8lld lanes (%6.1f per pixel row): run walk %6.1f ms, every column %6.1f ms -> %.1fx%s\n",
                    static_cast<long long>(count), double(count) / size.height(), median(runs), median(columns),
                    median(columns) / median(runs), same ? "" : "   (images differ!)");
    }
}

struct PaintFigures
{
    double render = 0.0; // building the frame image (a worker does this at 1M lanes)
    double gui = 0.0;    // GUI-thread paint when the window just changed
    double cached = 0.0; // GUI-thread paint of an unchanged window + overlay (hover, selection)
};

PaintFigures measurePaint(ViewState &state, SwimlaneCanvas &canvas, TimeWindow window, LaneWindow lanes, int frames)
{
    canvas.setLaneWindow(lanes);
    std::vector<double> render;
    std::vector<double> gui;
    std::vector<double> cached;
    QImage target(canvas.size(), QImage::Format_RGB32);
    for (int i = 0; i < frames; ++i) {
        // A one-ns shift is a new window: the frame must be rebuilt.
        state.setTimeWindow({window.begin + i, window.end + i});
        LaneFrameKey key;
        key.layout = canvas.laneLayout();
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
        // Let a background frame land, then paint the unchanged window again.
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

void benchPaint(const std::shared_ptr<TraceStore> &store, int frames, bool naive)
{
    ViewState state;
    state.setStore(store);
    QElapsedTimer clock;
    clock.start();
    auto layout = std::make_shared<LaneLayout>(LaneLayout::build(store->requests, LaneOrder{}, nullptr));
    std::printf("lane layout (arrival order, off the GUI thread): %.0f ms for %lld lanes\n",
                double(clock.nsecsElapsed()) / 1e6, static_cast<long long>(layout->slotCount()));
    SwimlaneCanvas canvas(&state);
    canvas.resize(1600, 900);
    canvas.setLaneLayout(layout);
    // Some selection and exceedance marks, so the overlay pass does work.
    std::vector<qint32> members;
    for (qint32 row = 0; row < qint32(store->requests.rowCount()); row += 20)
        members.push_back(row);
    state.setExceedance(
        {Metric::Ttft, Boundary::Client, 0.0, QStringLiteral("every 20th"), RowSet::fromSortedUnique(members)});
    state.selectRow(qint32(store->requests.rowCount() / 2));

    const TimeWindow bounds = canvas.timeBounds();
    const LaneWindow all{0.0, double(layout->slotCount())};
    const PaintFigures full = measurePaint(state, canvas, bounds, all, frames);

    // 1,000 lanes from the middle, over the time those lanes span.
    const qint64 mid = layout->slotCount() / 2;
    const LaneWindow zoomLanes{double(mid), 1000.0};
    const TimeWindow zoomWindow{layout->origin(mid) - 1'000'000'000, layout->origin(mid + 999) + 10'000'000'000};
    const PaintFigures zoom = measurePaint(state, canvas, zoomWindow, zoomLanes, frames);
    benchAggregateRows(layout, canvas.size(), qMax(3, frames / 3));

    std::printf("\nswimlane paint, 1600x900 canvas, %lld lanes (median of %d frames)\n",
                static_cast<long long>(layout->slotCount()), frames);
    std::printf("  full view:        GUI thread %6.2f ms new window, %5.2f ms unchanged (goal <= 16 ms);"
                " frame image %6.1f ms on a worker\n",
                full.gui, full.cached, full.render);
    std::printf("  1,000-lane zoom:  GUI thread %6.2f ms new window, %5.2f ms unchanged (goal <= 8 ms)\n", zoom.gui,
                zoom.cached);
    if (naive) {
        const double naiveFull = paintEveryLaneNaively(*layout, bounds, all, canvas.size());
        const double naiveZoom = paintEveryLaneNaively(*layout, zoomWindow, zoomLanes, canvas.size());
        std::printf("  naive reference on the GUI thread (fillRect per phase of every lane, no LOD):\n");
        std::printf("    full view %.0f ms -> %.0fx the GUI-thread paint, %.1fx the worker's frame;"
                    " 1,000-lane zoom %.2f ms -> %.1fx\n",
                    naiveFull, naiveFull / full.gui, naiveFull / full.render, naiveZoom, naiveZoom / zoom.gui);
    }
}

// What a new 1M-request store costs each view on the GUI thread (the rest of
// their work runs on workers).
void benchStoreReaction(const std::shared_ptr<TraceStore> &store)
{
    std::printf("\nGUI-thread reaction to a new %lld-request store\n",
                static_cast<long long>(store->requests.rowCount()));
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QCoreApplication::processEvents();
    QElapsedTimer clock;
    clock.start();
    window.viewState()->setStore(store);
    std::printf("  every view's storeChanged handlers: %.1f ms\n", double(clock.nsecsElapsed()) / 1e6);
    while (window.isBusy())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    // Let every view paint the new trace once.
    for (QElapsedTimer settle; settle.isValid() ? settle.elapsed() < 1000 : (settle.start(), true);)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    clock.restart();
    window.viewState()->setStore(nullptr);
    std::printf("  closing it again: %.1f ms\n", double(clock.nsecsElapsed()) / 1e6);
}

void benchSort(const std::shared_ptr<TraceStore> &store, bool naive)
{
    const RequestTable &table = store->requests;
    const RowSet all = RowSet::all(table.rowCount());
    std::printf("\nrequest table, %lld rows (off the GUI thread, 2 threads)\n",
                static_cast<long long>(table.rowCount()));
    auto time = [&](const char *name, RequestColumn column, bool descending) {
        RequestQuery query;
        query.sorted = true;
        query.sortColumn = column;
        query.descending = descending;
        QElapsedTimer clock;
        clock.start();
        const auto order = RequestQueries::sort(table, all, query, 2);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        std::printf("  sort by %-22s %7.0f ms   (goal <= 300 ms)\n", name, ms);
        return ms;
    };
    const double ttft = time("TTFT descending", {RequestColumn::Kind::Metric, -1, Metric::Ttft}, true);
    time("E2E", {RequestColumn::Kind::Metric, -1, Metric::E2e}, false);
    time("request id", {RequestColumn::Kind::Id}, false);
    if (table.attributes().size() > 0)
        time("first class attribute", {RequestColumn::Kind::Attribute, 0}, false);
    RequestQuery filter;
    filter.text = QStringLiteral("eu-west");
    QElapsedTimer clock;
    clock.start();
    const RequestQueryResult filtered = RequestQueries::run(table, filter, 2);
    std::printf("  filter text \"eu-west\"        %7.0f ms   (%lld rows match)\n", double(clock.nsecsElapsed()) / 1e6,
                static_cast<long long>(filtered.matching.size()));
    if (naive) {
        // Reference: Qt's QSortFilterProxyModel over the same table model,
        // sorting by the raw role on the GUI thread.
        RequestTableModel model;
        model.setStore(store);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(RequestTableModel::RawRole);
        int ttftColumn = 0;
        for (int c = 0; c < model.columnCount(); ++c) {
            if (model.columnAt(c).kind == RequestColumn::Kind::Metric && model.columnAt(c).metric == Metric::Ttft)
                ttftColumn = c;
        }
        clock.restart();
        proxy.sort(ttftColumn, Qt::DescendingOrder);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        std::printf("  reference QSortFilterProxyModel, TTFT: %.0f ms on the GUI thread -> Tracelane %.1fx faster\n",
                    ms, ms / ttft);
    }
}

// Loads `path` through the real main window while a 5 ms timer measures the
// largest gap between ticks on the GUI thread, until every view has settled.
void benchResponsiveness(const QString &path)
{
    MainWindow window;
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    qint64 lastCpu = 0;
    qint64 worst = 0;
    qint64 worstCpu = 0; // GUI-thread CPU time inside the worst gap
    qint64 worstAt = 0;
    qint64 busiest = 0; // most GUI-thread CPU time between two ticks
    qint64 busiestAt = 0;
    int over50 = 0;
    int ticks = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const qint64 cpu = threadCpuNs();
        const qint64 gap = now - last;
        if (gap > worst) {
            worst = gap;
            worstCpu = cpu - lastCpu;
            worstAt = now;
        }
        if (cpu - lastCpu > busiest) {
            busiest = cpu - lastCpu;
            busiestAt = now;
        }
        over50 += gap > 50'000'000;
        ++ticks;
        last = now;
        lastCpu = cpu;
    });
    bool loaded = false;
    qint64 loadedAt = 0;
    QObject::connect(&window, &MainWindow::loadFinished, [&](bool ok) {
        loaded = ok;
        loadedAt = clock.nsecsElapsed();
    });
    last = clock.nsecsElapsed();
    lastCpu = threadCpuNs();
    probe.start();
    window.openFile(path);
    // Until loaded, laid out, sorted, binned and painted, plus half a second.
    while (!loadedAt || window.isBusy() || clock.nsecsElapsed() < loadedAt + 500'000'000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    probe.stop();
    std::printf("\nGUI thread during a %lld-record load through the main window\n",
                static_cast<long long>(window.store() ? window.store()->requests.rowCount() : 0));
    std::printf("  load finished after %.2f s, views settled after %.2f s\n", double(loadedAt) / 1e9,
                double(clock.nsecsElapsed()) / 1e9 - 0.5);
    std::printf("  event-loop probe (5 ms timer): %d ticks, max gap %.1f ms at %.2f s (GUI thread computed %.1f ms"
                " of it), %d gaps over 50 ms   (goal: max <= 50 ms)\n",
                ticks, double(worst) / 1e6, double(worstAt) / 1e9, double(worstCpu) / 1e6, over50);
    std::printf("  most GUI-thread CPU time between two ticks: %.1f ms at %.2f s (load average now %s)\n",
                double(busiest) / 1e6, double(busiestAt) / 1e9, qPrintable(loadAverage()));
    if (!loaded)
        std::printf("  (the load failed)\n");
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    SlowEventReporter app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: tracelane-bench-gui TRACE.jsonl [--frames N] [--skip-naive]\n");
        return 2;
    }
    const QString path = args[1];
    const int framesAt = int(args.indexOf(QStringLiteral("--frames")));
    const int frames = framesAt > 0 && framesAt + 1 < args.size() ? args[framesAt + 1].toInt() : 15;
    const bool naive = !args.contains(QStringLiteral("--skip-naive"));

    QElapsedTimer clock;
    clock.start();
    const LoadResult result = TraceFileLoader::load(path, {});
    if (!result.ok()) {
        std::fprintf(stderr, "tracelane-bench-gui: %s\n", qPrintable(result.fatalError));
        return 1;
    }
    std::printf("loaded %lld requests in %.2f s (2 cores, load average %s)\n",
                static_cast<long long>(result.store->requests.rowCount()), double(clock.nsecsElapsed()) / 1e9,
                qPrintable(loadAverage()));
    if (args.contains(QStringLiteral("--only-tree"))) {
        app.reporting = true;
        RequestTableModel model;
        QTreeView tree;
        tree.setRootIsDecorated(false);
        tree.setUniformRowHeights(true);
        tree.setItemsExpandable(false);
        tree.setModel(&model);
        tree.resize(1200, 400);
        tree.show();
        QCoreApplication::processEvents();
        QElapsedTimer t;
        t.start();
        model.setStore(result.store);
        std::printf("tree setStore %lld ms\n", static_cast<long long>(t.restart()));
        for (int i = 0; i < 50; ++i)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        std::printf("tree first paints %lld ms\n", static_cast<long long>(t.restart()));
        std::vector<qint32> order(size_t(result.store->requests.rowCount()));
        std::iota(order.rbegin(), order.rend(), 0);
        model.setOrder(order);
        std::printf("tree permutation %lld ms\n", static_cast<long long>(t.restart()));
        for (int i = 0; i < 50; ++i)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        std::printf("tree paints %lld ms\n", static_cast<long long>(t.restart()));
        model.setOrder({1, 2, 3});
        model.setOrder(order);
        std::printf("tree reset %lld ms\n", static_cast<long long>(t.restart()));
        for (int i = 0; i < 50; ++i)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        std::printf("tree paints %lld ms\n", static_cast<long long>(t.restart()));
        return 0;
    }
    if (args.contains(QStringLiteral("--only-table"))) {
        app.reporting = true;
        ViewState state;
        RequestTablePanel panel(&state);
        panel.resize(1200, 400);
        panel.show();
        QCoreApplication::processEvents();
        QElapsedTimer t;
        t.start();
        state.setStore(result.store);
        std::printf("table setStore %lld ms\n", static_cast<long long>(t.restart()));
        for (int i = 0; i < 50; ++i)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        std::printf("table first paints %lld ms\n", static_cast<long long>(t.restart()));
        return 0;
    }
    if (args.contains(QStringLiteral("--only-sort"))) {
        benchSort(result.store, naive);
        return 0;
    }
    if (args.contains(QStringLiteral("--only-store"))) {
        app.reporting = true;
        benchStoreReaction(result.store);
        return 0;
    }
    benchPaint(result.store, frames, naive);
    benchSort(result.store, naive);
    benchStoreReaction(result.store);
    app.reporting = true;
    benchResponsiveness(path);
    return 0;
}
