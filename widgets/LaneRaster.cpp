#include "LaneRaster.h"

#include "BackgroundPool.h"
#include "analysis/lanes/LaneActivity.h"
#include "analysis/lanes/LaneLayout.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QThread>
#include <QPainter>
#include <QtConcurrent>

#include <cmath>
#include <vector>

namespace LaneRaster {
namespace {

using SwimlaneCoordinates::LaneWindow;

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
    auto mix = [alpha](int from, float to) { return int(float(from) + (to - float(from)) * alpha + 0.5f); };
    return qRgb(mix(qRed(under), r), mix(qGreen(under), g), mix(qBlue(under), b));
}

// Pixel rows [rowBegin, rowEnd) of the aggregate view.
// Workers get the raw buffer: QImage::scanLine() may detach, which is not
// safe to call from several threads at once.
void renderAggregateRows(uchar *bits, qsizetype bytesPerLine, QSize size, const LaneFrameKey &key, int rowBegin,
                         int rowEnd)
{
    const LaneLayout &layout = *key.layout;
    const int width = size.width();
    const double height = size.height();
    const bool aligned = key.axis == TimeAxis::AlignedAtSend;
    LaneActivity activity(width);
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
        activity.addLanes(layout, first, last, aligned, key.window.begin, key.window.duration());
        auto *pixels = reinterpret_cast<QRgb *>(bits + qsizetype(py) * bytesPerLine);
        if (activity.headerCount() > 0) {
            // A group starts inside this row: the row becomes the divider.
            for (int x = 0; x < width; ++x)
                pixels[x] = key.colors.headerBackground;
        }
        const float lanes = float(qMax<qint64>(1, activity.laneCount()));
        // One colour per run of equal bins; pixels are only written.
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
            from = qMax(from, 0);
            to = qMin(to, width - 1);
            // Colour: phase mix; strength: share of this row's lanes active here.
            const float alpha = 0.3f + 0.7f * std::min(1.0f, total / lanes);
            r /= total;
            g /= total;
            b /= total;
            QRgb under = from <= to ? pixels[from] : 0;
            QRgb colour = blend(under, r, g, b, alpha);
            for (int x = from; x <= to; ++x) {
                if (pixels[x] != under) {   // a grid line or divider under this pixel
                    under = pixels[x];
                    colour = blend(under, r, g, b, alpha);
                }
                pixels[x] = colour;
            }
        });
    }
}

struct LaneRects
{
    std::array<std::vector<QRect>, LaneActivity::kCategories> byCategory;
};

void renderSingleLanes(QImage &image, const LaneFrameKey &key)
{
    const LaneLayout &layout = *key.layout;
    const int width = image.width();
    const double height = image.height();
    const bool aligned = key.axis == TimeAxis::AlignedAtSend;
    const double pxPerNs = double(width) / double(key.window.duration());
    const double pxPerMs = pxPerNs * 1e6;
    const qint64 firstSlot = qMax<qint64>(0, qint64(std::floor(key.lanes.first)));
    const qint64 lastSlot = qMin(layout.slotCount(), qint64(std::ceil(key.lanes.first + key.lanes.count)));
    const double laneHeight = height / key.lanes.count;
    const int inset = laneHeight >= 6.0 ? 1 : 0;

    LaneRects rects;
    std::vector<std::pair<QRect, QString>> headers;
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
        const float *offsets = layout.offsets(slot);
        const int top = y0 + inset;
        const int laneHeightPx = qMax(1, y1 - y0 - 2 * inset);
        int previous = -1;
        double previousX = 0.0;
        int widest = -1;
        double widestX0 = 0.0;
        double widestLength = -1.0;
        bool drewAny = false;
        for (int s = 0; s < kStampCount; ++s) {
            if (std::isnan(offsets[s]))
                continue;
            const double x = base + double(offsets[s]) * pxPerMs;
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
    }

    QPainter painter(&image);
    painter.setPen(Qt::NoPen);
    for (int c = 0; c < LaneActivity::kCategories; ++c) {
        const auto &list = rects.byCategory[size_t(c)];
        if (list.empty())
            continue;
        painter.setBrush(QColor(key.colors.categories[size_t(c)]));
        painter.drawRects(list.data(), int(list.size()));
    }
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
    if (threads == 1 || key.layout->slotCount() < 20000) {
        renderAggregateRows(bits, bytesPerLine, size, key, 0, height);
        return image;
    }
    std::vector<std::pair<int, int>> bands;
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
