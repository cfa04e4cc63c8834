#include "ExceedanceText.h"

#include "ReportFormat.h"
#include "TextTable.h"
#include "analysis/exceedance/ExceedanceAnalysis.h"
#include "store/RequestTable.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ExceedanceText {

namespace {

using Align = TextTable::Align;

QString withUnit(double value, const QString &unit)
{
    if (std::isnan(value))
        return QStringLiteral("n/a");
    // Counts and attribute values print whole when they are whole.
    const bool count = unit == QStringLiteral("tokens") || unit.isEmpty();
    const int decimals = count && value == std::round(value) ? 0 : 1;
    const QString number = ReportFormat::fixed(value, decimals);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

QString separationDetail(const FeatureSeparation &separation)
{
    if (!separation.feature.numeric) {
        for (const auto &share : separation.shares) {
            if (share.value == separation.separatingValue) {
                return QStringLiteral("%1: %2 of set vs %3 of rest")
                    .arg(share.value, ReportFormat::share(share.setShare), ReportFormat::share(share.restShare));
            }
        }
        return {};
    }
    return QStringLiteral("median %1 vs %2")
        .arg(withUnit(separation.setMedian, separation.feature.unit),
             withUnit(separation.restMedian, separation.feature.unit));
}

void addRanking(QStringList *lines, const QString &title, const std::vector<FeatureSeparation> &ranked)
{
    *lines << title;
    TextTable text({QStringLiteral("rank"), QStringLiteral("feature"), QStringLiteral("separation"),
                    QStringLiteral("method"), QStringLiteral("set vs rest")},
                   {Align::Right, Align::Left, Align::Right, Align::Left, Align::Left});
    int rank = 0;
    for (const auto &separation : ranked) {
        text.addRow({QString::number(++rank), separation.feature.key, ReportFormat::fixed(separation.separation, 3),
                     separation.method(), separationDetail(separation)});
    }
    *lines << text.render();
}

} // namespace

QString attribution(const PhaseAttribution &attribution)
{
    QStringList lines;
    const QString total = metricLabel(attribution.total);
    lines << QStringLiteral("Phase attribution: mean %1 of the set minus the rest, %2 boundary (set n=%3, rest n=%4)")
                 .arg(total, boundaryKey(attribution.boundary))
                 .arg(attribution.setN)
                 .arg(attribution.restN);
    if (attribution.setN == 0 || attribution.restN == 0) {
        lines << QStringLiteral("  not available: the set or the rest is empty");
        return lines.join(QLatin1Char('\n'));
    }
    lines << QStringLiteral("  %1 - %2 = %3 ms")
                 .arg(ReportFormat::fixed(attribution.setMeanMs), ReportFormat::fixed(attribution.restMeanMs),
                      ReportFormat::fixed(attribution.differenceMs));
    TextTable text({QStringLiteral("phase"), QStringLiteral("set mean ms"), QStringLiteral("rest mean ms"),
                    QStringLiteral("difference ms"), QStringLiteral("of total")},
                   {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right});
    const auto shareOf = [&](double difference) {
        return attribution.differenceMs != 0.0 ? ReportFormat::share(difference / attribution.differenceMs)
                                               : QStringLiteral("n/a");
    };
    for (const auto &phase : attribution.phases) {
        text.addRow({phaseKey(phase.phase), ReportFormat::fixed(phase.setMeanMs), ReportFormat::fixed(phase.restMeanMs),
                     ReportFormat::fixed(phase.differenceMs), shareOf(phase.differenceMs)});
    }
    text.addRow({QStringLiteral("residual (unobserved)"), ReportFormat::fixed(attribution.residualSetMeanMs),
                 ReportFormat::fixed(attribution.residualRestMeanMs),
                 ReportFormat::fixed(attribution.residualDifferenceMs), shareOf(attribution.residualDifferenceMs)});
    text.addRow({QStringLiteral("total"), ReportFormat::fixed(attribution.setMeanMs),
                 ReportFormat::fixed(attribution.restMeanMs), ReportFormat::fixed(attribution.sumOfContributions()),
                 shareOf(attribution.sumOfContributions())});
    lines << text.render();
    if (attribution.suspected) {
        const auto found = std::find_if(attribution.phases.begin(), attribution.phases.end(),
                                        [&](const PhaseContribution &c) { return c.phase == *attribution.suspected; });
        lines << QStringLiteral("Suspected phase: %1 (%2 of the %3 ms excess)")
                     .arg(phaseKey(*attribution.suspected), ReportFormat::fixed(found->differenceMs),
                          ReportFormat::fixed(attribution.differenceMs));
    } else if (attribution.residualCarriesMost) {
        lines << QStringLiteral("Suspected phase: none; unobserved time carries most of the excess");
    } else {
        lines << QStringLiteral("Suspected phase: none; no phase is slower in the set");
    }
    if (!attribution.nextTest.isEmpty())
        lines << QStringLiteral("Next test: ") + attribution.nextTest;
    lines << QStringLiteral("Note: ") + PhaseAttribution::percentileNote();
    return lines.join(QLatin1Char('\n'));
}

QString ranking(const SetComparison &comparison)
{
    QStringList lines;
    addRanking(&lines,
               QStringLiteral("Attributes ranked by how they separate the set from the rest "
                              "(categories: max |share in set - share in rest|; numbers: Kolmogorov-Smirnov D)"),
               comparison.attributes);
    lines << QString();
    addRanking(&lines, QStringLiteral("Phases ranked by separation (Kolmogorov-Smirnov D)"), comparison.phases);
    return lines.join(QLatin1Char('\n'));
}

QString member(const MemberComparison &member, qsizetype setSize)
{
    QStringList lines;
    lines << QStringLiteral("Member %1 of %2: %3 (row %4)")
                 .arg(member.position + 1)
                 .arg(setSize)
                 .arg(member.requestId)
                 .arg(member.row + 1);
    TextTable text({QStringLiteral("feature"), QStringLiteral("value"), QStringLiteral("rest median"),
                    QStringLiteral("percentile rank among rest")},
                   {Align::Left, Align::Right, Align::Right, Align::Left});
    for (const auto &row : member.rows) {
        if (row.feature.numeric) {
            text.addRow({row.feature.key, withUnit(row.value, row.feature.unit),
                         withUnit(row.restMedian, row.feature.unit), ReportFormat::fixed(row.percentileRank)});
        } else {
            const QString value = row.text.isEmpty() ? QStringLiteral("(none)") : row.text;
            text.addRow(
                {row.feature.key, value, QString(),
                 QStringLiteral("%1 of the rest share this value").arg(ReportFormat::share(row.restShareSameValue))});
        }
    }
    lines << text.render();
    return lines.join(QLatin1Char('\n'));
}

QString heading(const Heading &heading)
{
    const Metric metric = heading.spec.metric;
    QStringList lines;
    QString boundary = boundaryKey(heading.boundary) + QStringLiteral(" boundary");
    if (metric == Metric::Ttft)
        boundary += QStringLiteral(" (") + boundarySpan(heading.boundary) + QLatin1Char(')');
    lines << QStringLiteral("Exceedance set: %1 above its %2, %3")
                 .arg(metricLabel(metric), ReportFormat::percentileLabel(heading.spec.q), boundary);
    lines << QStringLiteral("Slice: %1 (%2 requests, %3 with %4 defined)")
                 .arg(heading.slice)
                 .arg(heading.sliceRequests)
                 .arg(heading.observedRequests)
                 .arg(metricLabel(metric));
    lines << QStringLiteral("Threshold: %1 = %2 %3; set: %4 requests; rest: %5 requests")
                 .arg(ReportFormat::percentileLabel(heading.spec.q), ReportFormat::fixed(heading.threshold),
                      metricUnit(metric))
                 .arg(heading.setSize)
                 .arg(heading.restSize);
    return lines.join(QLatin1Char('\n'));
}

QString members(const ExceedanceSpec &spec, const std::vector<ListedMember> &listed, qint64 setSize)
{
    const Metric metric = spec.metric;
    const bool withArrival = std::any_of(listed.begin(), listed.end(),
                                         [](const ListedMember &member) { return !std::isnan(member.arrivalSeconds); });
    QStringList header
        = {QStringLiteral("#"), QStringLiteral("request"), metricLabel(metric) + QLatin1Char(' ') + metricUnit(metric)};
    std::vector<Align> align = {Align::Right, Align::Left, Align::Right};
    if (withArrival) {
        header << QStringLiteral("arrival s");
        align.push_back(Align::Right);
    }
    TextTable table(header, align);
    for (size_t i = 0; i < listed.size(); ++i) {
        QStringList row = {QString::number(i + 1), listed[i].requestId, ReportFormat::fixed(listed[i].value)};
        if (withArrival) {
            row << (std::isnan(listed[i].arrivalSeconds)
                        ? QStringLiteral("n/a")
                        : QStringLiteral("+") + QString::number(listed[i].arrivalSeconds, 'f', 3));
        }
        table.addRow(row);
    }
    return QStringLiteral("Members (%1; %2 of %3)")
               .arg(spec.order == ExceedanceOrder::Arrival ? QStringLiteral("by arrival")
                                                           : metricLabel(metric) + QStringLiteral(" descending"))
               .arg(listed.size())
               .arg(setSize)
        + QLatin1Char('\n') + table.render();
}

QString analysis(const ExceedanceAnalysis &analysis, const RequestTable &table, const Options &options)
{
    const auto &set = analysis.set;
    QStringList lines;
    lines << heading({set.spec, set.boundary, options.slice, set.sliceRequests, set.observedRequests, set.threshold,
                      qint64(set.size()), qint64(set.rest.size())});
    if (set.isEmpty()) {
        lines << QStringLiteral("No request lies above the threshold: nothing to compare.");
        return lines.join(QLatin1Char('\n'));
    }
    lines << QString()
          << (options.attributionText.isEmpty() ? attribution(analysis.attribution) : options.attributionText)
          << QString() << ranking(analysis.comparison);

    // Members, in the set's order, with arrival relative to the trace's first request.
    qint64 firstSend = std::numeric_limits<qint64>::max();
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        if (send != kNoTime)
            firstSend = std::min(firstSend, send);
    }
    const qsizetype count = std::min<qsizetype>(options.listedMembers, set.size());
    std::vector<ListedMember> listed;
    for (qsizetype i = 0; i < count; ++i) {
        const qint32 row = set.members[size_t(i)];
        const qint64 send = table.stamp(row, Stamp::ClientSend);
        listed.push_back({table.idText(row), metricValueMs(table, row, set.spec.metric, set.spec.boundary),
                          send == kNoTime ? std::numeric_limits<double>::quiet_NaN() : double(send - firstSend) / 1e9});
    }
    lines << QString() << members(set.spec, listed, set.size());
    if (options.member >= 0 && options.member < set.size())
        lines << QString() << member(analysis.member(table, options.member), set.size());
    return lines.join(QLatin1Char('\n'));
}

} // namespace ExceedanceText
