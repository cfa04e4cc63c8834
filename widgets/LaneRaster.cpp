#include "LaneRaster.h"

#include "BackgroundPool.h"
#include "analysis/lanes/LaneActivity.h"
#include "analysis/lanes/LaneLayout.h"
#include "analysis/lanes/WorkActivity.h"
#include "analysis/lanes/WorkflowLanes.h"
#include "store/TraceStore.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QPainter>
#include <QThread>
#include <QtConcurrent>

#include <cmath>
#include <vector>

namespace LaneRaster {
namespace {

// From this many slots an aggregated frame's pixel rows are split across the pool.
constexpr qint64 kPoolSlots = 20000;

constexpr double kMinTickSpacingPx = 90.0;

void drawGrid(QImage &image, const LaneFrameKey &key)
{
    const int width = image.width();
    const qint64 step = gridStep(key.window, width);
    const QRgb line = key.colors.gridLine;
    for (qint64 t = SwimlaneCoordinates::firstTick(key.window.begin, key.tickOrigin, step); t < key.window.end;
         t += step) {
        const int x = int(std::lround(SwimlaneCoordinates::timeToX(t, key.window, width)));
        if (x < 0 || x >= width)
            continue;
        for (int y = 0; y < image.height(); ++y)
            reinterpret_cast<QRgb *>(image.scanLine(y))[x] = line;
    }
}

QRgb blend(QRgb under, float r, float g, float b, float alpha)
{
    auto mix = [alpha](int from, float to) { return int(std::lround(float(from) + (to - float(from)) * alpha)); };
    return qRgb(mix(qRed(under), r), mix(qGreen(under), g), mix(qBlue(under), b));
}

// Writes `colour` (blended over what is there with `alpha`) into pixels
// [from, to] of a row, keeping grid lines and dividers visible under it.
void fillRun(QRgb *pixels, int width, int from, int to, float r, float g, float b, float alpha)
{
    from = qMax(from, 0);
    to = qMin(to, width - 1);
    if (from > to)
        return;
    QRgb under = pixels[from];
    QRgb colour = blend(under, r, g, b, alpha);
    for (int x = from; x <= to; ++x) {
        if (pixels[x] != under) { // a grid line or divider under this pixel
            under = pixels[x];
            colour = blend(under, r, g, b, alpha);
        }
        pixels[x] = colour;
    }
}

// Pixel rows [rowBegin, rowEnd) of the aggregate view.
// Workers get the raw buffer: QImage::scanLine() may detach, which is not
// safe to call from several threads at once.
void renderAggregateRows(uchar *bits, qsizetype bytesPerLine, QSize size, const LaneFrameKey &key, int rowBegin,
                         int rowEnd)
{
    const LaneLayout &layout = *key.layout;
    const WorkflowLanes *workflows = key.workflows && !key.workflows->isEmpty() ? key.workflows.get() : nullptr;
    const int width = size.width();
    const double height = size.height();
    const bool aligned = key.axis == TimeAxis::AlignedAtSend;
    LaneActivity activity(width);
    WorkActivity work(workflows ? width : 0);
    float rgb[LaneActivity::kCategories][3];
    for (int c = 0; c < LaneActivity::kCategories; ++c) {
        rgb[c][0] = float(qRed(key.colors.categories[size_t(c)]));
        rgb[c][1] = float(qGreen(key.colors.categories[size_t(c)]));
        rgb[c][2] = float(qBlue(key.colors.categories[size_t(c)]));
    }
    for (int py = rowBegin; py < rowEnd; ++py) {
        const auto [first, last] = SwimlaneCoordinates::lanesInPixelRow(py, key.lanes, height, layout.slotCount());
        if (first >= last)
            continue;
        activity.clear();
        activity.addLanes(layout, first, last, aligned, key.window.begin, key.window.duration(), workflows);
        if (workflows) {
            work.clear();
            work.addLanes(layout, *workflows, first, last, aligned, key.window.begin, key.window.duration());
        }
        auto *pixels = reinterpret_cast<QRgb *>(bits + qsizetype(py) * bytesPerLine);
        if (activity.headerCount() > 0) {
            // A group starts inside this row: the row becomes the divider.
            for (int x = 0; x < width; ++x)
                pixels[x] = key.colors.headerBackground;
        }
        const float lanes = float(qMax<qint64>(1, activity.laneCount() + work.laneCount()));
        // Requests: one colour per run of equal bins, the phases mixed by share.
        activity.forEachRun([&](int from, int to, const float *v) {
            float total = 0.0f;
            float r = 0.0f;
            float g = 0.0f;
            float b = 0.0f;
            for (int c = 0; c < LaneActivity::kCategories; ++c) {
                const float share = v[c];
                if (share <= 0.0f)
                    continue;
                total += share;
                r += share * rgb[c][0];
                g += share * rgb[c][1];
                b += share * rgb[c][2];
            }
            if (total <= 1e-6f)
                return;
            // Colour: phase mix; strength: share of this row's lanes active here.
            const float alpha = 0.3f + 0.7f * std::min(1.0f, total / lanes);
            fillRun(pixels, width, from, to, r / total, g / total, b / total, alpha);
        });
        if (!workflows || work.laneCount() == 0)
            continue;
        // Workflows: the kind that holds most of the row's critical paths
        // (a mix of kinds would read as a kind of its own). In a file with
        // both, a pixel row holding both kinds of lane shows the workflows.
        work.forEachRun([&](int from, int to, const float *v) {
            const int kind = WorkActivity::dominant(v);
            if (kind < 0)
                return;
            float total = 0.0f;
            for (int c = 0; c < WorkActivity::kCategories; ++c)
                total += v[c];
            const QRgb colour = key.colors.kinds[size_t(kind)];
            const float alpha = 0.3f + 0.7f * std::min(1.0f, total / lanes);
            fillRun(pixels, width, from, to, float(qRed(colour)), float(qGreen(colour)), float(qBlue(colour)), alpha);
        });
    }
}

struct LaneRects
{
    std::array<std::vector<QRect>, LaneActivity::kCategories> byCategory;
    std::array<std::vector<QRect>, kWorkKindCount> byKind;
    std::array<std::vector<QRect>, kWorkKindCount> faintByKind;
};

// A lane tall enough for text: its row and where its drawing starts and ends.
struct LaneLabel
{
    qint32 row = -1;
    int y0 = 0;
    int y1 = 0;
    double x0 = 0.0;
    double x1 = 0.0;
};

// Rectangles for one workflow lane's segments, snapped to pixels; a lane
// thinner than a pixel still gets one, of its widest segment's kind.
void addWorkflowSegments(std::array<std::vector<QRect>, kWorkKindCount> &lists, const WorkflowLanes::Segments &segments,
                         double base, double pxPerMs, int width, int top, int heightPx)
{
    bool drewAny = false;
    qint32 widest = -1;
    for (qint32 i = 0; i < segments.count; ++i) {
        const double from = base + double(segments.begin[i]) * pxPerMs;
        const double to = base + double(segments.end[i]) * pxPerMs;
        const int x0 = int(std::lround(std::clamp(from, -2.0, width + 2.0)));
        const int x1 = int(std::lround(std::clamp(to, -2.0, width + 2.0)));
        if (x1 > x0) {
            lists[size_t(segments.kind[i])].emplace_back(x0, top, x1 - x0, heightPx);
            drewAny = true;
        }
        if (widest < 0 || segments.end[i] - segments.begin[i] > segments.end[widest] - segments.begin[widest])
            widest = i;
    }
    if (drewAny || widest < 0)
        return;
    const double x = base + double(segments.begin[widest]) * pxPerMs;
    if (x > -1.0 && x < width)
        lists[size_t(segments.kind[widest])].emplace_back(int(x), top, 1, heightPx);
}

// The text a lane is labelled with: the request id, or for a workflow its
// type (root name), trace id and flag.
QString labelOf(const TraceStore &store, qint32 row, const WorkflowLanes *workflows)
{
    QString id = store.requests.idText(row);
    const qint32 lane = workflows ? workflows->laneOfRow(row) : -1;
    if (lane < 0)
        return id;
    const AttributeColumn *type = store.requests.attribute(QStringLiteral("workflow_type"));
    const QString name = type ? type->text(row) : QString();
    QString text = name.isEmpty() ? id : QStringLiteral("%1 \u00b7 %2").arg(name, id.left(12));
    if (workflows->flags(lane) & WorkflowLanes::LongLivedStream)
        text += QCoreApplication::translate("LaneRaster", " (long-lived stream)");
    return text;
}

// Labels where there is room beside a lane: right of its end, else left of
// its start; a lane that fills the width keeps its colours unlabelled.
void drawLabels(QPainter &painter, const LaneFrameKey &key, const std::vector<LaneLabel> &labels,
                const WorkflowLanes *workflows, int width)
{
    if (labels.empty() || !key.store)
        return;
    QFont font = QGuiApplication::font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    painter.setFont(font);
    painter.setPen(QColor(key.colors.text));
    const QFontMetrics metrics(font);
    constexpr int kGap = 4;
    constexpr int kMinimumPx = 40; // less than a short id is noise
    for (const LaneLabel &label : labels) {
        const QString text = labelOf(*key.store, label.row, workflows);
        const int wanted = metrics.horizontalAdvance(text);
        const int afterEnd = int(std::ceil(label.x1)) + kGap;
        const int beforeStart = int(std::floor(label.x0)) - kGap;
        QRect box;
        if (width - afterEnd >= std::min(wanted, kMinimumPx * 3))
            box = QRect(afterEnd, label.y0, std::min(wanted, width - afterEnd), label.y1 - label.y0);
        else if (beforeStart >= std::min(wanted, kMinimumPx * 3))
            box = QRect(beforeStart - std::min(wanted, beforeStart), label.y0, std::min(wanted, beforeStart),
                        label.y1 - label.y0);
        else
            continue;
        if (box.width() < std::min(wanted, kMinimumPx)) // a short id that fits is written whole
            continue;
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, metrics.elidedText(text, Qt::ElideRight, box.width()));
    }
}

void renderSingleLanes(QImage &image, const LaneFrameKey &key)
{
    const LaneLayout &layout = *key.layout;
    const WorkflowLanes *workflows = key.workflows && !key.workflows->isEmpty() ? key.workflows.get() : nullptr;
    const int width = image.width();
    const double height = image.height();
    const bool aligned = key.axis == TimeAxis::AlignedAtSend;
    const double pxPerNs = double(width) / double(key.window.duration());
    const double pxPerMs = pxPerNs * 1e6;
    const qint64 firstSlot = qMax<qint64>(0, qint64(std::floor(key.lanes.first)));
    const qint64 lastSlot = qMin(layout.slotCount(), qint64(std::ceil(key.lanes.first + key.lanes.count)));
    const double laneHeight = height / key.lanes.count;
    const int inset = laneHeight >= 6.0 ? 1 : 0; // as laneBands()
    QFont labelFont = QGuiApplication::font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.9);
    const bool labelled = key.store && laneHeight >= QFontMetrics(labelFont).height();

    LaneRects rects;
    std::vector<std::pair<QRect, QString>> headers;
    std::vector<LaneLabel> labels;
    for (qint64 slot = firstSlot; slot < lastSlot; ++slot) {
        const int y0 = int(std::lround(SwimlaneCoordinates::laneToY(double(slot), key.lanes, height)));
        const int y1 = int(std::lround(SwimlaneCoordinates::laneToY(double(slot + 1), key.lanes, height)));
        if (layout.isHeader(slot)) {
            const qint32 group = layout.groupAt(slot);
            headers.emplace_back(QRect(0, y0, width, y1 - y0), layout.groups()[size_t(group)].label);
            continue;
        }
        const qint64 origin = layout.origin(slot);
        if (origin == kNoTime)
            continue;
        const double base = double(aligned ? -key.window.begin : origin - key.window.begin) * pxPerNs;
        const int top = y0 + inset;
        const int laneHeightPx = qMax(1, y1 - y0 - 2 * inset);
        const qint32 lane = workflows ? workflows->laneOfRow(layout.rowAt(slot)) : -1;
        if (lane >= 0) {
            // The critical path on top, the off-path work in a faint band
            // beneath it when the lane is tall enough for both.
            const auto path = workflows->path(lane);
            const auto offPath = workflows->offPath(lane);
            const int pathHeight = laneBands(key.lanes, height, slot).pathHeight;
            const double laneBase
                = double(aligned ? -key.window.begin : workflows->origin(lane) - key.window.begin) * pxPerNs;
            addWorkflowSegments(rects.byKind, path, laneBase, pxPerMs, width, top, pathHeight);
            if (pathHeight < laneHeightPx)
                addWorkflowSegments(rects.faintByKind, offPath, laneBase, pxPerMs, width, top + pathHeight,
                                    laneHeightPx - pathHeight);
            if (labelled && path.count > 0)
                labels.push_back({layout.rowAt(slot), y0, y1, laneBase + double(path.begin[0]) * pxPerMs,
                                  laneBase + double(path.end[path.count - 1]) * pxPerMs});
            continue;
        }
        const float *offsets = layout.offsets(slot);
        int previous = -1;
        double previousX = 0.0;
        int widest = -1;
        double widestX0 = 0.0;
        double widestLength = -1.0;
        double firstX = 0.0;
        bool drewAny = false;
        for (int s = 0; s < kStampCount; ++s) {
            if (std::isnan(offsets[s]))
                continue;
            const double x = base + double(offsets[s]) * pxPerMs;
            if (previous < 0)
                firstX = x;
            if (previous >= 0) {
                const int category = s == previous + 1 ? previous : LaneActivity::kResidual;
                // Snap to pixels; a sub-pixel phase merges into its neighbours.
                const int x0 = int(std::lround(std::clamp(previousX, -2.0, width + 2.0)));
                const int x1 = int(std::lround(std::clamp(x, -2.0, width + 2.0)));
                if (x1 > x0) {
                    rects.byCategory[size_t(category)].emplace_back(x0, top, x1 - x0, laneHeightPx);
                    drewAny = true;
                }
                if (x - previousX > widestLength) {
                    widestLength = x - previousX;
                    widest = category;
                    widestX0 = previousX;
                }
            }
            previous = s;
            previousX = x;
        }
        // A whole request thinner than a pixel still gets one.
        if (!drewAny && widest >= 0 && widestX0 > -1.0 && widestX0 < width)
            rects.byCategory[size_t(widest)].emplace_back(int(widestX0), top, 1, laneHeightPx);
        if (labelled && previous >= 0)
            labels.push_back({layout.rowAt(slot), y0, y1, firstX, previousX});
    }

    QPainter painter(&image);
    painter.setPen(Qt::NoPen);
    const auto fill = [&painter](const std::vector<QRect> &list, QRgb colour) {
        if (list.empty())
            return;
        painter.setBrush(QColor(colour));
        painter.drawRects(list.data(), int(list.size()));
    };
    for (int c = 0; c < LaneActivity::kCategories; ++c)
        fill(rects.byCategory[size_t(c)], key.colors.categories[size_t(c)]);
    for (int k = 0; k < kWorkKindCount; ++k) {
        fill(rects.byKind[size_t(k)], key.colors.kinds[size_t(k)]);
        fill(rects.faintByKind[size_t(k)], key.colors.faintKinds[size_t(k)]);
    }
    drawLabels(painter, key, labels, workflows, width);
    if (headers.empty())
        return;
    painter.setBrush(QColor(key.colors.headerBackground));
    QFont font = QGuiApplication::font();
    font.setBold(true);
    painter.setFont(font);
    const int textHeight = QFontMetrics(font).height();
    for (const auto &[rect, label] : headers) {
        painter.setPen(Qt::NoPen);
        painter.drawRect(rect);
        if (rect.height() + 2 >= textHeight) {
            painter.setPen(QColor(key.colors.text));
            painter.drawText(rect.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
    }
}

} // namespace

qint64 gridStep(TimeWindow window, int widthPx)
{
    return SwimlaneCoordinates::tickStep(window.duration(), widthPx, kMinTickSpacingPx);
}

LaneBands laneBands(SwimlaneCoordinates::LaneWindow lanes, double heightPx, qint64 slot)
{
    const int y0 = int(std::lround(SwimlaneCoordinates::laneToY(double(slot), lanes, heightPx)));
    const int y1 = int(std::lround(SwimlaneCoordinates::laneToY(double(slot + 1), lanes, heightPx)));
    const int inset = heightPx / lanes.count >= 6.0 ? 1 : 0;
    LaneBands bands;
    bands.top = y0 + inset;
    bands.height = qMax(1, y1 - y0 - 2 * inset);
    bands.pathHeight = bands.height >= 5 ? int(std::lround(bands.height * 0.6)) : bands.height;
    return bands;
}

bool rendersOnPool(const LaneFrameKey &key)
{
    return key.layout && !key.layout->isEmpty() && key.window.isValid() && key.lanes.isValid()
        && !SwimlaneCoordinates::showsSingleLanes(key.lanes, key.size.height())
        && key.layout->slotCount() >= kPoolSlots;
}

qint64 backgroundFrameLanes(bool workflowLanes)
{
    return workflowLanes ? 4'000 : 100'000;
}

QImage render(const LaneFrameKey &key, int threads)
{
    QImage image(key.size, QImage::Format_RGB32);
    if (image.isNull())
        return image;
    image.fill(key.colors.background);
    if (!key.layout || key.layout->isEmpty() || !key.window.isValid() || !key.lanes.isValid())
        return image;
    drawGrid(image, key);
    if (SwimlaneCoordinates::showsSingleLanes(key.lanes, image.height())) {
        renderSingleLanes(image, key);
        return image;
    }
    // Aggregate: pixel rows are independent, so split them across workers.
    const int height = image.height();
    threads = qBound(1, threads, 8);
    uchar *bits = image.bits();
    const qsizetype bytesPerLine = image.bytesPerLine();
    const QSize size = image.size();
    if (threads == 1 || key.layout->slotCount() < kPoolSlots) {
        renderAggregateRows(bits, bytesPerLine, size, key, 0, height);
        return image;
    }
    std::vector<std::pair<int, int>> bands;
    bands.reserve(size_t(threads));
    for (int i = 0; i < threads; ++i)
        bands.emplace_back(height * i / threads, height * (i + 1) / threads);
    QtConcurrent::blockingMap(BackgroundPool::instance(), bands, [=, &key](const std::pair<int, int> &band) {
        if (QThread::currentThread() != qApp->thread())
            BackgroundPool::lowerCurrentThreadPriority();
        renderAggregateRows(bits, bytesPerLine, size, key, band.first, band.second);
    });
    return image;
}

} // namespace LaneRaster
