#include "Metric.h"

#include "analysis/streams/RequestStream.h"
#include "store/RequestTable.h"

#include <cmath>
#include <limits>

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

double spanMs(qint64 begin, qint64 end)
{
    return begin == kNoTime || end == kNoTime ? kNan : double(end - begin) / 1e6;
}

} // namespace

QString metricKey(Metric metric)
{
    switch (metric) {
    case Metric::Ttft:
        return QStringLiteral("ttft");
    case Metric::Itl:
        return QStringLiteral("itl");
    case Metric::E2e:
        return QStringLiteral("e2e");
    case Metric::GapP95:
        return QStringLiteral("gap_p95");
    case Metric::MaxStall:
        return QStringLiteral("max_stall");
    default:
        return phaseKey(metricPhase(metric));
    }
}

QString metricLabel(Metric metric)
{
    switch (metric) {
    case Metric::Ttft:
        return QStringLiteral("TTFT");
    case Metric::Itl:
        return QStringLiteral("ITL");
    case Metric::E2e:
        return QStringLiteral("E2E");
    case Metric::GapP95:
        return QStringLiteral("p95 gap");
    case Metric::MaxStall:
        return QStringLiteral("Max stall");
    default:
        return phaseLabel(metricPhase(metric));
    }
}

QString metricUnit(Metric metric)
{
    return metric == Metric::Itl ? QStringLiteral("ms/token") : QStringLiteral("ms");
}

bool metricFromKey(const QString &key, Metric *metric)
{
    for (const Metric candidate : allMetrics()) {
        if (metricKey(candidate) == key.toLower()) {
            *metric = candidate;
            return true;
        }
    }
    return false;
}

std::vector<Metric> allMetrics()
{
    std::vector<Metric> metrics;
    metrics.reserve(size_t(kMetricCount));
    for (int i = 0; i < kMetricCount; ++i)
        metrics.push_back(static_cast<Metric>(i));
    return metrics;
}

Boundary observedBoundary(Metric metric, Boundary chosen)
{
    if (isStreamMetric(metric))
        return chosen == Boundary::Client ? Boundary::Client : Boundary::Server;
    return metric == Metric::Ttft ? chosen : Boundary::Client;
}

double metricValueMs(const RequestTable &table, qsizetype row, Metric metric, Boundary boundary)
{
    switch (metric) {
    case Metric::Ttft:
        return spanMs(table.stamp(row, boundaryStart(boundary)), table.stamp(row, boundaryFirstToken(boundary)));
    case Metric::Itl: {
        const qint32 tokens = table.outputTokens(row);
        if (tokens <= 1)
            return kNan;
        return spanMs(table.stamp(row, Stamp::FirstTokenClient), table.stamp(row, Stamp::LastTokenClient))
            / double(tokens - 1);
    }
    case Metric::E2e:
        return spanMs(table.stamp(row, Stamp::ClientSend), table.stamp(row, Stamp::LastTokenClient));
    case Metric::GapP95:
    case Metric::MaxStall: {
        const auto &timeline = boundary == Boundary::Client ? table.clientTokens() : table.serverTokens();
        return metric == Metric::GapP95 ? RequestStream::gapQuantileMs(timeline, row, 0.95)
                                        : RequestStream::maxGapMs(timeline, row);
    }
    default: {
        const Phase phase = metricPhase(metric);
        return spanMs(table.stamp(row, phaseBegin(phase)), table.stamp(row, phaseEnd(phase)));
    }
    }
}

ColumnVector<double> metricColumnMs(const RequestTable &table, Metric metric, Boundary boundary)
{
    const auto rows = table.rowCount();
    ColumnVector<double> values(static_cast<size_t>(rows));
    for (qsizetype row = 0; row < rows; ++row)
        values[static_cast<size_t>(row)] = metricValueMs(table, row, metric, boundary);
    return values;
}

bool anyDefined(const RequestTable &table, Metric metric, Boundary boundary)
{
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (!std::isnan(metricValueMs(table, row, metric, boundary)))
            return true;
    }
    return false;
}

Metric metricToShow(const RequestTable &table, Metric wanted, Boundary boundary)
{
    if (table.isEmpty() || anyDefined(table, wanted, boundary))
        return wanted;
    return anyDefined(table, Metric::E2e, boundary) ? Metric::E2e : wanted;
}

QString whatMetricNeeds(Metric metric, Boundary boundary)
{
    switch (metric) {
    case Metric::Ttft:
        return QStringLiteral("TTFT needs a first-token time (%1 to %2); a workflow has one only when a model "
                              "call records its tokens or first-token stamp")
            .arg(QLatin1String(stampFieldName(boundaryStart(boundary))),
                 QLatin1String(stampFieldName(boundaryFirstToken(boundary))));
    case Metric::Itl:
        return QStringLiteral("ITL needs the first and last client token and more than one output token");
    case Metric::E2e:
        return QStringLiteral("E2E needs client_send_ms and last_token_client_ms");
    default:
        break;
    }
    const Phase phase = metricPhase(metric);
    return QStringLiteral("%1 needs both %2 and %3")
        .arg(phaseLabel(phase), QLatin1String(stampFieldName(phaseBegin(phase))),
             QLatin1String(stampFieldName(phaseEnd(phase))));
}
