#include "ServerMemberComparison.h"

#include "analysis/classes/ClassColumn.h"
#include "store/RequestTable.h"

#include <algorithm>

namespace ServerMemberComparison {

std::vector<ServerSetComparison::MemberPlace> places(const RequestTable &names, Boundary boundary,
                                                     const RequestTable &fetched, qint32 fetchedRow)
{
    std::vector<ServerSetComparison::MemberPlace> result;
    for (const auto &feature : comparisonFeatures(names, boundary)) {
        if (feature.numeric)
            result.push_back({feature, MemberComparison::valueOfFetched(names, feature, fetched, fetchedRow).value});
    }
    return result;
}

MemberComparison fromRankings(const RequestTable &names, Boundary boundary, const RequestTable &fetched,
                              qint32 fetchedRow, const std::vector<ServerSetComparison::MemberPlace> &places,
                              const SetComparison &rankings, qint64 restSize)
{
    MemberComparison comparison;
    comparison.requestId = fetched.idText(fetchedRow);
    auto place = places.begin();
    for (const auto &feature : comparisonFeatures(names, boundary)) {
        MemberFeatureRow line = MemberComparison::valueOfFetched(names, feature, fetched, fetchedRow);
        if (feature.numeric) {
            const auto &asked = *place++;
            if (!asked.found)
                continue; // not in the tables (the per-token figures)
            line.restN = asked.restN;
            line.restMedian = asked.restMedian;
            if (!std::isnan(line.value))
                line.percentileRank = MemberComparison::percentileRank(asked.less, asked.equal, asked.restN);
        } else {
            // The rest's rows with the member's value (or with none), as the
            // rankings counted them; a value they did not count is in no row.
            line.restN = restSize;
            const QString value = line.text.isEmpty() ? ClassColumn::noneLabel() : line.text;
            const auto &list = rankings.attributes;
            const auto separation = std::find_if(list.begin(), list.end(), [&](const FeatureSeparation &ranked) {
                return ranked.feature.cacheKey() == feature.cacheKey();
            });
            qint64 same = 0;
            if (separation != list.end()) {
                for (const auto &share : separation->shares)
                    same += share.value == value ? share.restCount : 0;
            }
            if (restSize > 0)
                line.restShareSameValue = double(same) / double(restSize);
        }
        comparison.rows.push_back(line);
    }
    return comparison;
}

} // namespace ServerMemberComparison
