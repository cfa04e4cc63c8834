#include "ReportFigures.h"

#include "FigurePalette.h"
#include "ReportFormat.h"
#include "SvgAxes.h"
#include "SvgCanvas.h"
#include "analysis/classes/ClassTable.h"
#include "analysis/compare/TraceComparison.h"
#include "analysis/exceedance/PhaseAttribution.h"
#include "analysis/load/ServiceLoad.h"
#include "analysis/workflows/GanttRows.h"
#include "analysis/workflows/WorkflowSchedule.h"
#include "store/RequestTable.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace {

const QString kInk = QStringLiteral("#222222");
const QString kMuted = QStringLiteral("#666666");

QString grouped(double value, int decimals)
{
    return QLocale(QLocale::English).toString(value, 'f', decimals);
}

QString ms(double value)
{
    return grouped(value, 1) + QStringLiteral(" ms");
}

QString metricAxis(Metric metric, Boundary boundary)
{
    return QStringLiteral("%1 at the %2 boundary (%3)")
        .arg(metricLabel(metric), boundaryKey(observedBoundary(metric, boundary)), metricUnit(metric));
}

SvgCanvas::TextStyle style(double size, SvgCanvas::Anchor anchor = SvgCanvas::Anchor::Start, const QString &fill = kInk,
                           bool bold = false)
{
    SvgCanvas::TextStyle text;
    text.size = size;
    text.anchor = anchor;
    text.fill = fill;
    text.bold = bold;
    return text;
}

// Legend entry: a short line (or box) and its label.
void legendLine(SvgCanvas &canvas, double x, double y, const QString &colour, const QString &label, bool dashed = false)
{
    canvas.line(x, y - 4, x + 18, y - 4, colour, 2.0, dashed);
    canvas.text(x + 24, y, SvgCanvas::elide(label, 150, 10.5), style(10.5));
}

void legendBox(SvgCanvas &canvas, double x, double y, const QString &colour, const QString &label)
{
    canvas.rect(x, y - 9, 10, 10, colour);
    canvas.text(x + 14, y, label, style(10.5));
}

// Horizontal signed bars: a label column, a zero line, value labels.
QString signedBars(const QString &title, const std::vector<std::tuple<QString, double, QString>> &bars,
                   const QString &axisTitle)
{
    if (bars.empty())
        return {};
    const double labelWidth = 170.0;
    const double rowHeight = 22.0;
    const double top = 10.0;
    const double height = top + rowHeight * double(bars.size()) + 46.0;
    SvgCanvas canvas(ReportFigures::kWidth, height, title);
    double low = 0.0;
    double high = 0.0;
    for (const auto &[label, value, colour] : bars) {
        if (std::isfinite(value)) {
            low = std::min(low, value);
            high = std::max(high, value);
        }
    }
    const auto [from, to] = SvgAxis::niceRange(low, high, false);
    const SvgAxis x(from, to, labelWidth, ReportFigures::kWidth - 80.0);
    const double plotBottom = top + rowHeight * double(bars.size());
    for (const double tick : x.ticks(6)) {
        canvas.line(x.map(tick), top, x.map(tick), plotBottom, QStringLiteral("#e4e4e4"));
        canvas.text(x.map(tick), plotBottom + 14, SvgAxis::label(tick), style(10, SvgCanvas::Anchor::Middle, kMuted));
    }
    canvas.line(x.map(0.0), top, x.map(0.0), plotBottom, QStringLiteral("#555555"));
    double y = top;
    for (const auto &[label, value, colour] : bars) {
        canvas.text(labelWidth - 8, y + 15, SvgCanvas::elide(label, labelWidth - 12, 11),
                    style(11, SvgCanvas::Anchor::End));
        if (std::isfinite(value)) {
            const double a = x.map(std::min(0.0, value));
            const double b = x.map(std::max(0.0, value));
            canvas.rect(a, y + 4, b - a, rowHeight - 8, colour, QStringLiteral("%1: %2").arg(label, ms(value)));
            const QString text = (value > 0 ? QStringLiteral("+") : QString()) + ms(value);
            canvas.text(b + 5, y + 15, text, style(10.5));
        } else {
            canvas.text(x.map(0.0) + 5, y + 15, QStringLiteral("not observed"),
                        style(10.5, SvgCanvas::Anchor::Start, kMuted));
        }
        y += rowHeight;
    }
    canvas.text((labelWidth + ReportFigures::kWidth - 80.0) / 2.0, height - 8, axisTitle,
                style(11, SvgCanvas::Anchor::Middle));
    return canvas.svg();
}

} // namespace

namespace ReportFigures {

QString classCdfs(const ClassTable &table, double thresholdMs, int maxClasses)
{
    if (table.overall.n == 0 || table.overall.cdf.empty())
        return {};
    std::vector<const ClassCell *> cells;
    for (const ClassCell &cell : table.cells) {
        if (cell.n > 0 && !cell.cdf.empty())
            cells.push_back(&cell);
    }
    std::stable_sort(cells.begin(), cells.end(), [](const ClassCell *a, const ClassCell *b) { return a->n > b->n; });
    if (qsizetype(cells.size()) > maxClasses)
        cells.resize(size_t(maxClasses));
    // The x axis reaches past the overall p99, so the tail is readable and a
    // single outlier does not squeeze every curve to the left.
    const double p99 = table.overall.quantiles[3].value;
    double xMax = std::isfinite(p99) ? p99 * 1.25 : table.overall.cdf.back().x;
    xMax = std::min(xMax, table.overall.cdf.back().x);
    if (std::isfinite(thresholdMs))
        xMax = std::max(xMax, thresholdMs * 1.05);
    const double legendWidth = 190.0;
    const double height = 300.0;
    SvgCanvas canvas(kWidth, height, QStringLiteral("%1 CDF by class").arg(metricLabel(table.metric)));
    // Not a structured binding: clang 14 (the fuzz preset) cannot capture one in the lambda below.
    const std::pair<double, double> xRange = SvgAxis::niceRange(0.0, xMax, false);
    const double x1 = xRange.second;
    const SvgAxis x(xRange.first, x1, 62.0, kWidth - legendWidth - 14.0);
    const SvgAxis y(0.0, 1.0, height - 42.0, 12.0);
    SvgPlotFrame{62.0, 12.0, legendWidth + 14.0, 42.0}.draw(canvas, x, y, metricAxis(table.metric, table.boundary),
                                                            QStringLiteral("share of requests \u2264 x"));
    const auto curve = [&](const std::vector<CdfPoint> &cdf) {
        std::vector<std::pair<double, double>> points;
        points.reserve(cdf.size() * 2);
        double previous = 0.0;
        for (const CdfPoint &point : cdf) {
            if (point.x > x1) {
                points.emplace_back(x.map(x1), y.map(previous));
                break;
            }
            // A step: across at the previous share, then up.
            points.emplace_back(x.map(point.x), y.map(previous));
            points.emplace_back(x.map(point.x), y.map(point.share));
            previous = point.share;
        }
        return points;
    };
    double legendY = 24.0;
    const double legendX = kWidth - legendWidth + 4.0;
    for (size_t i = 0; i < cells.size(); ++i) {
        const QString colour = FigurePalette::series(int(i));
        canvas.polyline(curve(cells[i]->cdf), colour, 1.8);
        legendLine(canvas, legendX, legendY, colour,
                   QStringLiteral("%1 (n = %2)").arg(cells[i]->label(), grouped(double(cells[i]->n), 0)));
        legendY += 17.0;
    }
    canvas.polyline(curve(table.overall.cdf), QStringLiteral("#000000"), 1.4);
    legendLine(canvas, legendX, legendY, QStringLiteral("#000000"),
               QStringLiteral("overall (n = %1)").arg(grouped(double(table.overall.n), 0)));
    legendY += 22.0;
    // The overall percentiles, where the curve crosses them.
    for (size_t i = 0; i < table.overall.quantiles.size(); ++i) {
        const QuantileEstimate &estimate = table.overall.quantiles[i];
        if (!std::isfinite(estimate.value) || estimate.value > x1)
            continue;
        const double px = x.map(estimate.value);
        const double py = y.map(estimate.q);
        canvas.rect(px - 3, py - 3, 6, 6, QStringLiteral("#ffffff"),
                    QStringLiteral("%1 %2").arg(ReportFormat::percentileLabel(estimate.q), ms(estimate.value)),
                    QStringLiteral("#000000"));
        canvas.text(legendX, legendY,
                    QStringLiteral("%1 %2").arg(ReportFormat::percentileLabel(estimate.q), ms(estimate.value)),
                    style(10.5, SvgCanvas::Anchor::Start, kMuted));
        legendY += 15.0;
    }
    if (std::isfinite(thresholdMs)) {
        const double px = x.map(thresholdMs);
        canvas.line(px, 12.0, px, height - 42.0, FigurePalette::criticalPath(), 1.5, true);
        canvas.text(px - 4, height - 50.0, QStringLiteral("objective %1").arg(ms(thresholdMs)),
                    style(10.5, SvgCanvas::Anchor::End, FigurePalette::criticalPath()));
    }
    return canvas.svg();
}

QString phaseAttribution(const PhaseAttribution &attribution)
{
    if (attribution.setN == 0 || attribution.restN == 0)
        return {};
    std::vector<std::tuple<QString, double, QString>> bars;
    for (const PhaseContribution &contribution : attribution.phases)
        bars.emplace_back(phaseKey(contribution.phase), contribution.differenceMs,
                          FigurePalette::phase(contribution.phase));
    bars.emplace_back(QStringLiteral("residual (unobserved)"), attribution.residualDifferenceMs,
                      FigurePalette::residual());
    return signedBars(
        QStringLiteral("Mean excess of the exceedance set over the rest, by phase"), bars,
        QStringLiteral("set mean \u2212 rest mean (ms); parts add up to %1").arg(ms(attribution.differenceMs)));
}

QString memberTimelines(const RequestTable &table, std::span<const qint32> rows, Boundary boundary, double windowMs)
{
    constexpr size_t kMaxRows = 12;
    const size_t count = std::min(rows.size(), kMaxRows);
    if (count == 0)
        return {};
    const double labelWidth = 150.0;
    const double rowHeight = 20.0;
    const double top = 24.0;
    const double height = top + rowHeight * double(count) + 44.0;
    SvgCanvas canvas(kWidth, height, QStringLiteral("Slowest requests, phase by phase"));
    double longest = 0.0;
    for (size_t i = 0; i < count; ++i) {
        const double e2e = metricValueMs(table, rows[i], Metric::E2e, Boundary::Client);
        const double ttft = metricValueMs(table, rows[i], Metric::Ttft, boundary);
        longest = std::max({longest, std::isfinite(e2e) ? e2e : 0.0, std::isfinite(ttft) ? ttft : 0.0});
    }
    const bool windowed = std::isfinite(windowMs) && windowMs < longest;
    const auto [x0, x1] = SvgAxis::niceRange(0.0, std::max(windowed ? windowMs : longest, 1.0), false);
    const SvgAxis x(x0, x1, labelWidth, kWidth - (windowed ? 90.0 : 16.0));
    const double bottom = top + rowHeight * double(count);
    for (const double tick : x.ticks(7)) {
        canvas.line(x.map(tick), top, x.map(tick), bottom, QStringLiteral("#e4e4e4"));
        canvas.text(x.map(tick), bottom + 14, SvgAxis::label(tick), style(10, SvgCanvas::Anchor::Middle, kMuted));
    }
    // Legend of the phases along the top.
    double lx = labelWidth;
    for (const Phase phase : kAllPhases) {
        legendBox(canvas, lx, 14.0, FigurePalette::phase(phase), phaseKey(phase));
        lx += SvgCanvas::textWidth(phaseKey(phase), 10.5) + 24.0;
    }
    double y = top;
    for (size_t i = 0; i < count; ++i) {
        const qint32 row = rows[i];
        canvas.text(labelWidth - 8, y + 14, SvgCanvas::elide(table.idText(row), labelWidth - 12, 10.5),
                    style(10.5, SvgCanvas::Anchor::End));
        const qint64 origin = table.stamp(row, Stamp::ClientSend);
        if (origin != kNoTime) {
            // Unobserved stretches stay residual grey beneath the phases.
            const qint64 last = table.stamp(row, Stamp::LastTokenClient);
            if (last != kNoTime)
                canvas.rect(x.map(0.0), y + 4, x.map(double(last - origin) / 1e6) - x.map(0.0), rowHeight - 8,
                            FigurePalette::residual());
            for (const Phase phase : kAllPhases) {
                const qint64 begin = table.stamp(row, phaseBegin(phase));
                const qint64 end = table.stamp(row, phaseEnd(phase));
                if (begin == kNoTime || end == kNoTime || end <= begin)
                    continue;
                const double a = x.map(double(begin - origin) / 1e6);
                const double b = x.map(double(end - origin) / 1e6);
                canvas.rect(a, y + 4, std::max(0.5, b - a), rowHeight - 8, FigurePalette::phase(phase),
                            QStringLiteral("%1: %2").arg(phaseKey(phase), ms(double(end - begin) / 1e6)));
            }
            const qint64 first = table.stamp(row, boundaryFirstToken(boundary));
            if (first != kNoTime) {
                const double px = x.map(double(first - origin) / 1e6);
                canvas.line(px, y + 1, px, y + rowHeight - 1, kInk, 1.5);
            }
            const double e2e = last == kNoTime ? kNoThreshold : double(last - origin) / 1e6;
            if (windowed && std::isfinite(e2e) && e2e > x1)
                canvas.text(kWidth - 86.0, y + 14, QStringLiteral("\u2192 ends %1").arg(ms(e2e)),
                            style(10, SvgCanvas::Anchor::Start, kMuted));
        }
        y += rowHeight;
    }
    canvas.text((labelWidth + kWidth) / 2.0, height - 8,
                QStringLiteral("time since client send (ms); black tick: first token at the %1 boundary")
                    .arg(boundaryKey(boundary)),
                style(11, SvgCanvas::Anchor::Middle));
    return canvas.svg();
}

QString criticalPath(const WorkflowSchedule &schedule, const std::vector<PathSection> &path,
                     const std::vector<qint64> &slack, int maxRows)
{
    const SpanGraph &graph = schedule.graph();
    if (graph.isEmpty())
        return {};
    const std::vector<quint8> collapsed(size_t(graph.spanCount()), 0);
    std::vector<GanttRow> rows = GanttRows::build(graph, schedule.tree(), collapsed);
    if (qsizetype(rows.size()) > maxRows) {
        std::vector<quint8> keep(size_t(graph.spanCount()), 0);
        for (const PathSection &section : path) {
            if (section.span != PathSection::kNoSpan)
                keep[size_t(section.span)] = 1;
        }
        rows = GanttRows::build(graph, schedule.tree(), collapsed, &keep);
        if (qsizetype(rows.size()) > maxRows)
            rows.resize(size_t(maxRows));
    }
    const ClippedSpans &clipped = schedule.clipped();
    const qint64 origin = schedule.timing().start;
    const double total = double(schedule.timing().e2e()) / 1e6;
    const double labelWidth = 200.0;
    const double rowHeight = 18.0;
    const double top = 26.0;
    const double height = top + rowHeight * double(rows.size()) + 44.0;
    SvgCanvas canvas(kWidth, height, QStringLiteral("Workflow critical path"));
    const auto [x0, x1] = SvgAxis::niceRange(0.0, std::max(total, 1.0), false);
    const SvgAxis x(x0, x1, labelWidth, kWidth - 16.0);
    const double bottom = top + rowHeight * double(rows.size());
    for (const double tick : x.ticks(7)) {
        canvas.line(x.map(tick), top, x.map(tick), bottom, QStringLiteral("#e4e4e4"));
        canvas.text(x.map(tick), bottom + 14, SvgAxis::label(tick), style(10, SvgCanvas::Anchor::Middle, kMuted));
    }
    legendBox(canvas, labelWidth, 14.0, FigurePalette::criticalPath(), QStringLiteral("on the critical path"));
    canvas.line(labelWidth + 150, 10.0, labelWidth + 170, 10.0, QStringLiteral("#404040"), 1.5);
    canvas.text(labelWidth + 176, 14.0, QStringLiteral("slack"), style(10.5));
    std::vector<qint32> rowOf(size_t(graph.spanCount()), -1);
    for (size_t i = 0; i < rows.size(); ++i)
        rowOf[size_t(rows[i].span)] = qint32(i);
    for (const PathSection &section : path) {
        if (section.span == PathSection::kNoSpan || rowOf[size_t(section.span)] < 0)
            continue;
        const double y = top + rowHeight * double(rowOf[size_t(section.span)]);
        const double a = x.map(double(section.start - origin) / 1e6);
        const double b = x.map(double(section.end - origin) / 1e6);
        canvas.rect(
            a, y + 1, std::max(1.0, b - a), rowHeight - 2, FigurePalette::criticalPath(),
            QStringLiteral("critical: %1 for %2").arg(graph.label(section.span), ms(double(section.duration()) / 1e6)));
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        const qint32 span = rows[i].span;
        const double y = top + rowHeight * double(i);
        const QString label = QString(qsizetype(rows[i].depth) * 2, QLatin1Char(' ')) + graph.label(span);
        canvas.text(labelWidth - 8, y + 13, SvgCanvas::elide(label, labelWidth - 10, 10.5),
                    style(10.5, SvgCanvas::Anchor::End));
        const qint64 start = clipped.start[size_t(span)];
        const qint64 end = clipped.end[size_t(span)];
        const double a = x.map(double(start - origin) / 1e6);
        const double b = x.map(double(end - origin) / 1e6);
        canvas.rect(a, y + 4, std::max(1.0, b - a), rowHeight - 8, FigurePalette::category(graph.category(span)),
                    QStringLiteral("%1: %2").arg(graph.label(span), ms(double(end - start) / 1e6)));
        if (size_t(span) < slack.size() && slack[size_t(span)] > 0
            && slack[size_t(span)] != ScheduleGraph::kUnbounded) {
            const double c = x.map(double(end + slack[size_t(span)] - origin) / 1e6);
            canvas.line(b, y + rowHeight / 2, c, y + rowHeight / 2, QStringLiteral("#404040"), 1.5);
            canvas.line(c, y + 5, c, y + rowHeight - 5, QStringLiteral("#404040"), 1.5);
        }
    }
    canvas.text((labelWidth + kWidth) / 2.0, height - 8,
                QStringLiteral("time since the workflow started (ms); E2E %1").arg(ms(total)),
                style(11, SvgCanvas::Anchor::Middle));
    return canvas.svg();
}

QString whatIfSavings(const std::vector<std::pair<QString, double>> &savingsMs)
{
    std::vector<std::tuple<QString, double, QString>> bars;
    bars.reserve(savingsMs.size());
    for (const auto &[label, saving] : savingsMs)
        bars.emplace_back(label, saving, saving >= 0 ? QStringLiteral("#009e73") : FigurePalette::criticalPath());
    return signedBars(QStringLiteral("What each change would save"), bars,
                      QStringLiteral("saving on the workflow's E2E (ms); negative: it would cost"));
}

QString arrivals(const ConcurrencyTimeline &timeline)
{
    const size_t bins = timeline.arrivals.size();
    if (bins == 0 || timeline.binNs <= 0)
        return {};
    const double binSeconds = double(timeline.binNs) / 1e9;
    double peakRate = 0.0;
    double peakFlight = 0.0;
    for (size_t i = 0; i < bins; ++i) {
        peakRate = std::max(peakRate, double(timeline.arrivals[i]) / binSeconds);
        peakFlight = std::max(peakFlight, timeline.meanInFlight[i]);
    }
    const double height = 300.0;
    SvgCanvas canvas(kWidth, height, QStringLiteral("Arrivals and requests in flight"));
    const double spanSeconds = binSeconds * double(bins);
    const auto [t0, t1] = SvgAxis::niceRange(0.0, spanSeconds, false);
    const SvgAxis x(t0, t1, 62.0, kWidth - 16.0);
    // Two panels sharing the time axis.
    const auto [r0, r1] = SvgAxis::niceRange(0.0, std::max(peakRate, 1.0), false);
    const SvgAxis rate(r0, r1, 128.0, 12.0);
    const auto [f0, f1] = SvgAxis::niceRange(0.0, std::max(peakFlight, 1.0), false);
    const SvgAxis flight(f0, f1, height - 42.0, 152.0);
    for (const double tick : x.ticks(7)) {
        canvas.line(x.map(tick), 12.0, x.map(tick), height - 42.0, QStringLiteral("#e4e4e4"));
        canvas.text(x.map(tick), height - 28.0, SvgAxis::label(tick), style(10, SvgCanvas::Anchor::Middle, kMuted));
    }
    for (const auto &[axis, title] :
         {std::pair{&rate, QStringLiteral("arrivals/s")}, std::pair{&flight, QStringLiteral("in flight")}}) {
        for (const double tick : axis->ticks(4))
            canvas.text(56.0, axis->map(tick) + 3.5, SvgAxis::label(tick), style(10, SvgCanvas::Anchor::End, kMuted));
        SvgCanvas::TextStyle rotated = style(11, SvgCanvas::Anchor::Middle);
        rotated.rotate = -90.0;
        canvas.text(13.0, (axis->map(axis->minimum()) + axis->map(axis->maximum())) / 2.0, title, rotated);
        canvas.line(62.0, axis->map(axis->minimum()), kWidth - 16.0, axis->map(axis->minimum()),
                    QStringLiteral("#555555"));
    }
    for (size_t i = 0; i < bins; ++i) {
        const double a = x.map(binSeconds * double(i));
        const double b = x.map(binSeconds * double(i + 1));
        const double value = double(timeline.arrivals[i]) / binSeconds;
        canvas.rect(a, rate.map(value), std::max(0.5, b - a - 0.5), rate.map(0.0) - rate.map(value),
                    QStringLiteral("#8c8c8c"));
    }
    std::vector<std::pair<double, double>> line;
    for (size_t i = 0; i < bins; ++i)
        line.emplace_back(x.map(binSeconds * (double(i) + 0.5)), flight.map(timeline.meanInFlight[i]));
    canvas.polyline(line, QStringLiteral("#0072b2"), 1.6);
    canvas.text((62.0 + kWidth) / 2.0, height - 8,
                QStringLiteral("time since the first arrival (s); %1 s bins").arg(QString::number(binSeconds, 'g', 3)),
                style(11, SvgCanvas::Anchor::Middle));
    return canvas.svg();
}

QString tokenShape(const RequestTable &table, std::span<const qint32> rows)
{
    // log2 bins: [1,2), [2,4), ... up to 2^20 tokens.
    constexpr int kBins = 21;
    std::vector<qint64> counts(size_t(kBins * kBins), 0);
    qint64 total = 0;
    int maxPrompt = 0;
    int maxOutput = 0;
    const auto add = [&](qsizetype row) {
        const qint32 prompt = table.promptTokens(row);
        const qint32 output = table.outputTokens(row);
        if (prompt <= 0 || output <= 0)
            return;
        const int p = std::min(kBins - 1, int(std::log2(double(prompt))));
        const int o = std::min(kBins - 1, int(std::log2(double(output))));
        ++counts[size_t(p) * kBins + size_t(o)];
        maxPrompt = std::max(maxPrompt, p);
        maxOutput = std::max(maxOutput, o);
        ++total;
    };
    if (rows.empty()) {
        for (qsizetype row = 0; row < table.rowCount(); ++row)
            add(row);
    } else {
        for (const qint32 row : rows)
            add(row);
    }
    if (total == 0)
        return {};
    int minPrompt = kBins;
    int minOutput = kBins;
    qint64 peak = 0;
    for (int p = 0; p < kBins; ++p) {
        for (int o = 0; o < kBins; ++o) {
            const qint64 c = counts[size_t(p) * kBins + size_t(o)];
            if (c > 0) {
                minPrompt = std::min(minPrompt, p);
                minOutput = std::min(minOutput, o);
                peak = std::max(peak, c);
            }
        }
    }
    const int columns = maxPrompt - minPrompt + 1;
    const int lines = maxOutput - minOutput + 1;
    const double cell = std::min(40.0, std::min(440.0 / columns, 220.0 / lines));
    const double left = 70.0;
    const double top = 12.0;
    const double height = top + cell * lines + 48.0;
    SvgCanvas canvas(kWidth, height, QStringLiteral("Prompt and output tokens, jointly"));
    const auto power = [](int exponent) {
        const double value = std::pow(2.0, exponent);
        return value >= 1024.0 ? QString::number(value / 1024.0, 'g', 4) + QLatin1Char('k')
                               : QString::number(value, 'g', 6);
    };
    for (int p = 0; p < columns; ++p) {
        for (int o = 0; o < lines; ++o) {
            const qint64 c = counts[size_t(p + minPrompt) * kBins + size_t(o + minOutput)];
            // White to blue by log count, so rare combinations still show.
            const double t = c == 0 ? 0.0 : 0.15 + 0.85 * std::log1p(double(c)) / std::log1p(double(peak));
            const int r = int(std::lround(255 - t * (255 - 0x00)));
            const int g = int(std::lround(255 - t * (255 - 0x72)));
            const int b = int(std::lround(255 - t * (255 - 0xb2)));
            const QString colour = QStringLiteral("#%1%2%3")
                                       .arg(r, 2, 16, QLatin1Char('0'))
                                       .arg(g, 2, 16, QLatin1Char('0'))
                                       .arg(b, 2, 16, QLatin1Char('0'));
            const double px = left + cell * p;
            const double py = top + cell * (lines - 1 - o);
            canvas.rect(px, py, cell - 1, cell - 1, colour,
                        QStringLiteral("prompt %1\u2013%2, output %3\u2013%4: %5 requests")
                            .arg(power(p + minPrompt), power(p + minPrompt + 1), power(o + minOutput),
                                 power(o + minOutput + 1), grouped(double(c), 0)));
        }
    }
    for (int p = 0; p <= columns; p += std::max(1, columns / 8))
        canvas.text(left + cell * p, top + cell * lines + 14, power(p + minPrompt),
                    style(10, SvgCanvas::Anchor::Middle, kMuted));
    for (int o = 0; o <= lines; o += std::max(1, lines / 6))
        canvas.text(left - 5, top + cell * (lines - o) + 3.5, power(o + minOutput),
                    style(10, SvgCanvas::Anchor::End, kMuted));
    canvas.text(left + cell * columns / 2.0, height - 8, QStringLiteral("prompt tokens (log\u2082 bins)"),
                style(11, SvgCanvas::Anchor::Middle));
    SvgCanvas::TextStyle rotated = style(11, SvgCanvas::Anchor::Middle);
    rotated.rotate = -90.0;
    canvas.text(13.0, top + cell * lines / 2.0, QStringLiteral("output tokens"), rotated);
    const double lx = left + cell * columns + 24.0;
    canvas.text(lx, top + 12, QStringLiteral("%1 requests with both counts").arg(grouped(double(total), 0)),
                style(10.5));
    canvas.text(lx, top + 28, QStringLiteral("darkest cell: %1").arg(grouped(double(peak), 0)),
                style(10.5, SvgCanvas::Anchor::Start, kMuted));
    return canvas.svg();
}

QString comparison(const TraceComparison &comparison, int maxRows)
{
    if (!comparison.ok())
        return {};
    std::vector<const ComparisonCell *> cells{&comparison.overall};
    for (const ComparisonCell &cell : comparison.cells) {
        if (qsizetype(cells.size()) >= maxRows)
            break;
        if (!cell.oneSided())
            cells.push_back(&cell);
    }
    double high = 0.0;
    for (const ComparisonCell *cell : cells) {
        for (const QuantileEstimate *estimate : {&cell->difference.baseline, &cell->difference.candidate}) {
            for (const double v : {estimate->value, estimate->upper}) {
                if (std::isfinite(v))
                    high = std::max(high, v);
            }
        }
    }
    const double labelWidth = 170.0;
    const double rowHeight = 28.0;
    const double top = 28.0;
    const double height = top + rowHeight * double(cells.size()) + 44.0;
    SvgCanvas canvas(kWidth, height, QStringLiteral("Baseline and candidate at the target percentile"));
    const auto [x0, x1] = SvgAxis::niceRange(0.0, std::max(high, 1.0), false);
    const SvgAxis x(x0, x1, labelWidth, kWidth - 16.0);
    const double bottom = top + rowHeight * double(cells.size());
    for (const double tick : x.ticks(7)) {
        canvas.line(x.map(tick), top, x.map(tick), bottom, QStringLiteral("#e4e4e4"));
        canvas.text(x.map(tick), bottom + 14, SvgAxis::label(tick), style(10, SvgCanvas::Anchor::Middle, kMuted));
    }
    const QString baseColour = QStringLiteral("#8c8c8c");
    const QString candColour = QStringLiteral("#0072b2");
    legendBox(canvas, labelWidth, 14.0, baseColour, QStringLiteral("baseline"));
    legendBox(canvas, labelWidth + 90.0, 14.0, candColour, QStringLiteral("candidate (95% intervals as whiskers)"));
    double y = top;
    for (const ComparisonCell *cell : cells) {
        canvas.text(labelWidth - 8, y + 12, SvgCanvas::elide(cell->label(), labelWidth - 12, 10.5),
                    style(10.5, SvgCanvas::Anchor::End));
        canvas.text(labelWidth - 8, y + 24, PercentileDifference::verdictLabel(cell->difference.verdict),
                    style(9.5, SvgCanvas::Anchor::End, kMuted));
        const auto mark = [&](const QuantileEstimate &estimate, double offset, const QString &colour) {
            if (!std::isfinite(estimate.value))
                return;
            const double cy = y + offset;
            if (std::isfinite(estimate.lower) && std::isfinite(estimate.upper))
                canvas.line(x.map(estimate.lower), cy, x.map(estimate.upper), cy, colour, 1.5);
            canvas.rect(x.map(estimate.value) - 3.5, cy - 3.5, 7, 7, colour,
                        QStringLiteral("%1 %2").arg(ReportFormat::percentileLabel(estimate.q), ms(estimate.value)));
        };
        mark(cell->difference.baseline, 9.0, baseColour);
        mark(cell->difference.candidate, 19.0, candColour);
        y += rowHeight;
    }
    canvas.text((labelWidth + kWidth) / 2.0, height - 8,
                QStringLiteral("%1 %2").arg(ReportFormat::percentileLabel(comparison.spec.q),
                                            metricAxis(comparison.spec.metric, comparison.spec.boundary)),
                style(11, SvgCanvas::Anchor::Middle));
    return canvas.svg();
}

} // namespace ReportFigures
