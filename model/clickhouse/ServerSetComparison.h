#pragma once

#include "analysis/exceedance/ExceedanceSet.h"
#include "analysis/exceedance/SetComparison.h"

#include <QString>

#include <limits>
#include <vector>

class ServerRequests;

// The exceedance set's feature rankings (SetComparison) answered by
// ClickHouse, figure for figure those of ExceedanceAnalysis on the file,
// without fetching the rows:
// - categorical attributes: one GROUP BY of every row's attribute key and
//   value (ARRAY JOIN of the arrays) counting the set's and the rest's rows,
//   and the first row holding the value (the order a loader interns it in);
// - numeric features (the phases, token counts, numeric attributes): per
//   feature, one GROUP BY of its values' order keys' prefix
//   (ServerOrderStatistics::keySql) and group, counting both groups with
//   each group's lowest and highest key per cell. From those cells the
//   client finds what needs a closer look, and only those cells are split
//   by more bits of the key in the next read (their exact keys when few):
//   a cell holding a median's rank with more than one value of its group,
//   one straddling a bin's edge, and one in which the Kolmogorov–Smirnov
//   distance could exceed (or, before it, equal) the largest distance seen
//   at the cells' ends, when both groups have values in it. Then the
//   medians, D and where it is reached, and the bins' shares are computed
//   here as on the file, from exact counts and values.
struct ServerSetComparison
{
    // One member's place among the rest in a numeric feature, found in the
    // same cells as the rankings (the cell of its value split until it
    // holds that value alone): the rest's defined values, how many lie
    // below the member's value and how many equal it, and their median. A
    // feature the rankings leave out (TTFT, ITL, E2E, the set's own metric)
    // gets cells of its own, split only for these.
    struct MemberPlace
    {
        RequestFeature feature;                                  // numeric
        double value = std::numeric_limits<double>::quiet_NaN(); // the member's; NaN: it has none
        bool found = false;                                      // false: not in the tables (the per-token figures)
        qint64 restN = 0;
        qint64 less = 0;
        qint64 equal = 0;
        double restMedian = std::numeric_limits<double>::quiet_NaN();
    };

    // `requests` opened (ServerRequests::open: the attribute names, their
    // kinds and order) and filtered as the set was found; `threshold`,
    // `setSize` and `restSize` as ServerExceedance found them.
    // `exactUpTo` below 0: exactUpToByDefault(). `member`, when given, the
    // places to find (features and values in, the rest out).
    static bool compute(const ServerRequests &requests, const ExceedanceSpec &spec, double threshold, qint64 setSize,
                        qint64 restSize, SetComparison *result, QString *error, qint64 exactUpTo = -1,
                        std::vector<MemberPlace> *member = nullptr);

    // The first read's cells: the key's top bits (sign, exponent and 12 of
    // the mantissa: 1/4096 of an octave). Finer cells mean fewer to split
    // but more groups to form and ship. On 20M rows, one read per feature
    // (nine) and its splits took 16, 18, 20, 22, 24, 26, 28, 32 bits:
    // 11.5, 10.3, 9.1, 9.8, 5.7, 5.6, 6.5, 11.7 s (and 1.5 GB at 32).
    static constexpr int kFirstBits = 24;
    // A read splits its cells into their exact keys when they hold at most
    // this many rows in all, else by kRefineBits more bits of the key.
    static constexpr qint64 kExactUpTo = 100'000;
    static constexpr int kRefineBits = 8;
    // kExactUpTo, or the environment's TRACELANE_CLICKHOUSE_EXACT_UP_TO (for
    // tests of the CLI: 0 splits by kRefineBits at every read).
    static qint64 exactUpToByDefault();
};
