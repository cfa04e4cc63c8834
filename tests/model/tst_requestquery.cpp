#include "analysis/requests/RequestQuery.h"
#include "analysis/stats/StableKeySort.h"
#include "io/TraceFileLoader.h"
#include "store/TraceStore.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

std::shared_ptr<TraceStore> load(const QString &name)
{
    return TraceFileLoader::load(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/") + name, {}).store;
}

QStringList idsOf(const RequestTable &table, const std::vector<qint32> &rows)
{
    QStringList ids;
    for (const qint32 row : rows)
        ids.append(table.idText(row));
    return ids;
}

} // namespace

class tst_RequestQuery : public QObject
{
    Q_OBJECT
private slots:
    void filter_data();
    void filter();
    void sort_data();
    void sort();
    void parallelSortMatchesSerial();
    void radixKeysOrderLikeTheComparator_data();
    void radixKeysOrderLikeTheComparator();
    void filterLabel();
};

void tst_RequestQuery::filter_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("value");
    QTest::addColumn<int>("count");
    QTest::newRow("no filter: every row") << QString() << QString() << QString() << 240;
    QTest::newRow("id substring, case-insensitive") << QStringLiteral("MC-000") << QString() << QString() << 9;
    QTest::newRow("class value by text") << QStringLiteral("ap-south") << QString() << QString() << 82;
    QTest::newRow("attribute = value") << QString() << QStringLiteral("region") << QStringLiteral("ap-south") << 82;
    QTest::newRow("both conditions") << QStringLiteral("interactive") << QStringLiteral("region")
                                     << QStringLiteral("ap-south") << 63;
    QTest::newRow("numeric attribute") << QString() << QStringLiteral("tenant_tier") << QStringLiteral("2") << 90;
    QTest::newRow("unknown attribute matches nothing")
        << QString() << QStringLiteral("nope") << QStringLiteral("x") << 0;
    QTest::newRow("value nobody has") << QString() << QStringLiteral("region") << QStringLiteral("mars") << 0;
}

void tst_RequestQuery::filter()
{
    QFETCH(QString, text);
    QFETCH(QString, attribute);
    QFETCH(QString, value);
    QFETCH(int, count);
    const auto store = load(QStringLiteral("multiclass.jsonl"));
    RequestQuery query;
    query.text = text;
    query.attribute = attribute;
    query.value = value;
    const RowSet rows = RequestQueries::filter(store->requests, query);
    QCOMPARE(rows.size(), count);
    for (const qint32 row : rows) {
        if (!attribute.isEmpty())
            QCOMPARE(store->requests.attribute(attribute)->text(row), value);
    }
    // From a first row on (a grown capture's new rows): exactly the matches
    // at or after it, so the old matches and these make the whole answer.
    for (const qsizetype firstRow : {qsizetype(0), qsizetype(1), qsizetype(120), qsizetype(239), qsizetype(240)}) {
        const RowSet tail = RequestQueries::filter(store->requests, query, nullptr, firstRow);
        const auto [from, to] = rows.indexRange(qint32(firstRow), qint32(store->requests.rowCount()));
        QCOMPARE(std::vector<qint32>(tail.begin(), tail.end()),
                 std::vector<qint32>(rows.rows().begin() + from, rows.rows().begin() + to));
    }
}

void tst_RequestQuery::sort_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("metric");
    QTest::addColumn<bool>("descending");
    QTest::addColumn<QStringList>("ids");
    QTest::newRow("id descending") << int(RequestColumn::Kind::Id) << 0 << true
                                   << QStringList{QStringLiteral("r-c"), QStringLiteral("r-b"), QStringLiteral("r-a")};
    QTest::newRow("TTFT ascending") << int(RequestColumn::Kind::Metric) << int(Metric::Ttft) << false
                                    << QStringList{QStringLiteral("r-c"), QStringLiteral("r-b"), QStringLiteral("r-a")};
    QTest::newRow("prompt tokens descending")
        << int(RequestColumn::Kind::PromptTokens) << 0 << true
        << QStringList{QStringLiteral("r-b"), QStringLiteral("r-a"), QStringLiteral("r-c")};
    QTest::newRow("ITL ties keep row order")
        << int(RequestColumn::Kind::Metric) << int(Metric::Itl) << false
        << QStringList{QStringLiteral("r-a"), QStringLiteral("r-b"), QStringLiteral("r-c")};
    QTest::newRow("region attribute") << int(RequestColumn::Kind::Attribute) << 0 << true
                                      << QStringList{QStringLiteral("r-b"), QStringLiteral("r-a"),
                                                     QStringLiteral("r-c")};
}

void tst_RequestQuery::sort()
{
    QFETCH(int, kind);
    QFETCH(int, metric);
    QFETCH(bool, descending);
    QFETCH(QStringList, ids);
    const auto store = load(QStringLiteral("three-requests.jsonl"));
    RequestQuery query;
    query.sorted = true;
    query.sortColumn = {static_cast<RequestColumn::Kind>(kind), 0, static_cast<Metric>(metric)};
    query.descending = descending;
    const RequestQueryResult result = RequestQueries::run(store->requests, query);
    QCOMPARE(idsOf(store->requests, result.ordered), ids);
    QVERIFY(!result.filtered);
}

void tst_RequestQuery::parallelSortMatchesSerial()
{
    // Big enough for the two-thread path (65,536 rows and more).
    const auto small = load(QStringLiteral("multiclass.jsonl"));
    TraceStore store;
    for (int copy = 0; copy < 300; ++copy) {
        for (qsizetype row = 0; row < small->requests.rowCount(); ++row) {
            const std::string id = std::to_string(copy) + "-" + std::string(small->requests.id(row));
            RequestTable::Row r;
            r.id = id;
            r.outputTokens = small->requests.outputTokens(row);
            for (int s = 0; s < kStampCount; ++s)
                r.stamps[size_t(s)] = small->requests.stamp(row, static_cast<Stamp>(s)) + copy;
            store.requests.appendRow(r);
            store.requests.finishRow();
        }
    }
    RequestQuery query;
    query.sorted = true;
    query.sortColumn = {RequestColumn::Kind::Metric, -1, Metric::E2e};
    const RowSet all = RowSet::all(store.requests.rowCount());
    const auto parallel = RequestQueries::sort(store.requests, all, query, 2);
    const auto serial = RequestQueries::sort(store.requests, all, query, 1);
    QCOMPARE(parallel.size(), size_t(72'000));
    QVERIFY(parallel == serial);
    query.sortColumn = {RequestColumn::Kind::Id};
    QVERIFY(RequestQueries::sort(store.requests, all, query, 2) == RequestQueries::sort(store.requests, all, query, 1));
}

void tst_RequestQuery::radixKeysOrderLikeTheComparator_data()
{
    QTest::addColumn<bool>("descending");
    QTest::newRow("ascending") << false;
    QTest::newRow("descending") << true;
}

void tst_RequestQuery::radixKeysOrderLikeTheComparator()
{
    // Every kind of double a column can hold, many times over (so several
    // radix passes run): the stable radix order must equal a stable sort
    // with the table's rule (missing last both ways, ties by row).
    QFETCH(bool, descending);
    const double nan = std::nan("");
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> kinds = {0.0,   -0.0, 1.0, -1.0, 1e-300, -1e-300, 5e-324, 123.456, 123.456,
                                       1e300, -inf, inf, nan,  2.5,    -2.5,    1e6,    0.001,   42.0};
    std::vector<double> values;
    for (int i = 0; i < 5000; ++i)
        values.push_back(kinds[size_t(i * 7919) % kinds.size()] * (i % 3 == 0 ? 1.0 : double(i % 11) + 1.0));
    std::vector<StableKeySort::KeyedRow> items;
    std::vector<qint32> reference;
    for (qint32 row = 0; row < qint32(values.size()); ++row) {
        items.push_back({StableKeySort::orderedKey(values[size_t(row)], descending), row});
        reference.push_back(row);
    }
    std::stable_sort(reference.begin(), reference.end(), [&](qint32 a, qint32 b) {
        const double x = values[size_t(a)];
        const double y = values[size_t(b)];
        if (std::isnan(x) || std::isnan(y))
            return !std::isnan(x) && std::isnan(y);
        return descending ? x > y : x < y;
    });
    QVERIFY(StableKeySort::sort(items));
    std::vector<qint32> radix;
    for (const auto &item : items)
        radix.push_back(item.row);
    QCOMPARE(radix.size(), reference.size());
    for (size_t i = 0; i < radix.size(); ++i) {
        if (radix[i] != reference[i])
            QFAIL(qPrintable(QStringLiteral("position %1: row %2 (%3), want row %4 (%5)")
                                 .arg(i)
                                 .arg(radix[i])
                                 .arg(values[size_t(radix[i])])
                                 .arg(reference[i])
                                 .arg(values[size_t(reference[i])])));
    }
    // A cancelled sort says so.
    std::atomic<bool> cancelled{true};
    QVERIFY(!StableKeySort::sort(items, &cancelled));
}

void tst_RequestQuery::filterLabel()
{
    RequestQuery query;
    QCOMPARE(query.filterLabel(), QString());
    query.text = QStringLiteral("eu");
    query.attribute = QStringLiteral("priority");
    query.value = QStringLiteral("batch");
    QCOMPARE(query.filterLabel(), QStringLiteral("text ~ \"eu\" and priority = batch"));
}

QTEST_GUILESS_MAIN(tst_RequestQuery)
#include "tst_requestquery.moc"
