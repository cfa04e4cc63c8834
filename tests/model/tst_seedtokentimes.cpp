// Per-token times in seed JSONL (contract v2): server_token_ms,
// client_token_ms and client_token_counts, read exactly on the fast path and
// through the full parser alike; bad lists reject the record or are dropped
// with a reason while the request loads; parallel chunks merge in order.

#include "io/TraceFileLoader.h"
#include "io/TracelaneContract.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr qint64 kMs = 1'000'000;

QString fixture(const QString &name)
{
    return QStringLiteral(TRACELANE_TEST_DATA_DIR "/") + name;
}

qsizetype rowOf(const RequestTable &table, const char *id)
{
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        if (table.id(row) == id)
            return row;
    }
    return -1;
}

const RejectedRecord *rejectedOn(const TraceStore &store, qint64 line)
{
    for (const auto &rejected : store.rejected) {
        if (rejected.line == line)
            return &rejected;
    }
    return nullptr;
}

} // namespace

class tst_SeedTokenTimes : public QObject
{
    Q_OBJECT
private slots:
    void goodListsLoadExactly();
    void fullParserReadsTheSameLists();
    void chunkedClientEvents();
    void badListsRejectTheRecord_data();
    void badListsRejectTheRecord();
    void mismatchedLengthsAreDroppedWithAReason();
    void parallelChunksMergeInOrder();
    void jsonArrayOfRecordsKeepsTokenTimes();
    void spanClientCountsExpandToTokens();
};

void tst_SeedTokenTimes::goodListsLoadExactly()
{
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/token-times.jsonl")), {});
    QVERIFY(result.ok());
    const auto &table = result.store->requests;
    QCOMPARE(table.rowCount(), 8);
    QCOMPARE(int(result.store->rejected.size()), 7);
    const auto row = rowOf(table, "req-1");
    QCOMPARE(table.serverTokens().countFor(row), size_t(11));
    QCOMPARE(table.clientTokens().countFor(row), size_t(11));
    QCOMPARE(table.serverTokens().times(row).front(), 1005 * kMs);
    QCOMPARE(table.serverTokens().times(row).back(), 1025 * kMs);
    QCOMPARE(table.clientTokens().times(row)[3], 1012 * kMs);

    // Sub-nanosecond digits round half away from zero; spaces and exponents
    // are read exactly too.
    const auto exact = rowOf(table, "req-13");
    QCOMPARE(table.serverTokens().times(exact), (std::vector<qint64>{13'005'000'001, 13'005'250'000}));
    QCOMPARE(table.clientTokens().times(exact), (std::vector<qint64>{13'006 * kMs, 13'026 * kMs}));

    // Eleven tokens with one time: one event that carried them all.
    const auto together = rowOf(table, "req-15");
    QCOMPARE(table.clientTokens().countFor(together), size_t(1));
    QCOMPARE(table.clientTokens().tokensFor(together), qint64(11));
    QCOMPARE(table.serverTokens().countFor(together), size_t(0));
}

void tst_SeedTokenTimes::fullParserReadsTheSameLists()
{
    // req-12 has \u escapes in its id, so it goes through nlohmann's parser.
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/token-times.jsonl")), {});
    const auto &table = result.store->requests;
    const auto row = rowOf(table, "req-12");
    QVERIFY(row >= 0);
    std::vector<qint64> server;
    for (int k = 0; k < 11; ++k)
        server.push_back((12'005 + 2 * k) * kMs);
    QCOMPARE(table.serverTokens().times(row), server);
    const auto events = table.clientTokens().events(row);
    QCOMPARE(events.size(), size_t(3));
    QCOMPARE(events[1].time, 12'016 * kMs);
    QCOMPARE(events[1].tokens, 5);
    QCOMPARE(events[2].tokens, 5);
}

void tst_SeedTokenTimes::chunkedClientEvents()
{
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/token-times.jsonl")), {});
    const auto &table = result.store->requests;
    const auto row = rowOf(table, "req-2");
    const auto events = table.clientTokens().events(row);
    QCOMPARE(events.size(), size_t(3));
    QCOMPARE(events[0].tokens, 1);
    QCOMPARE(events[1].tokens, 5);
    QCOMPARE(table.clientTokens().tokensFor(row), qint64(11));
}

void tst_SeedTokenTimes::badListsRejectTheRecord_data()
{
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("reason");
    QTest::newRow("unordered") << 3 << QStringLiteral("client_token_ms")
                               << QStringLiteral("token times are not in time order: element 3 (3010.000 ms) is "
                                                 "before element 2 (3012.000 ms)");
    QTest::newRow("before the first token") << 4 << QStringLiteral("client_token_ms")
                                            << QStringLiteral("element 0 (4005.500 ms) is before "
                                                              "first_token_client_ms (4006.000 ms)");
    QTest::newRow("after the last token") << 5 << QStringLiteral("client_token_ms")
                                          << QStringLiteral("element 10 (5027.000 ms) is after last_token_client_ms "
                                                            "(5026.000 ms)");
    QTest::newRow("a string element") << 6 << QStringLiteral("client_token_ms")
                                      << QStringLiteral("element 0 must be a number of milliseconds");
    QTest::newRow("a number instead of a list") << 10 << QStringLiteral("client_token_ms")
                                                << QStringLiteral("must be an array of times in milliseconds, got a "
                                                                  "number");
    QTest::newRow("a nested element") << 11 << QStringLiteral("client_token_ms")
                                      << QStringLiteral("element 0 must be a number of milliseconds");
    QTest::newRow("the key twice") << 14 << QStringLiteral("client_token_ms")
                                   << QStringLiteral("appears twice in the record");
}

void tst_SeedTokenTimes::badListsRejectTheRecord()
{
    QFETCH(int, line);
    QFETCH(QString, field);
    QFETCH(QString, reason);
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/token-times.jsonl")), {});
    const RejectedRecord *rejected = rejectedOn(*result.store, line);
    QVERIFY2(rejected, qPrintable(QStringLiteral("line %1 not rejected").arg(line)));
    QCOMPARE(rejected->field, field);
    QCOMPARE(rejected->reason, reason);
}

void tst_SeedTokenTimes::mismatchedLengthsAreDroppedWithAReason()
{
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/token-times.jsonl")), {});
    const auto &store = *result.store;
    const auto &table = store.requests;
    QStringList notices;
    for (const auto &notice : store.notices)
        notices << QStringLiteral("%1: %2").arg(notice.line).arg(notice.message);
    QVERIFY2(notices.contains(QStringLiteral("7: request req-7: field 'server_token_ms' has 10 times for 11 output "
                                             "tokens (one per token); not used")),
             qPrintable(notices.join(QLatin1Char('\n'))));
    QVERIFY(notices.contains(QStringLiteral("8: request req-8: field 'client_token_ms' has 12 events for 11 output "
                                            "tokens: an event carries at least one token; not used")));
    QVERIFY(notices.contains(QStringLiteral("9: request req-9: field 'client_token_counts' counts add up to 10 "
                                            "tokens, output_tokens is 11; not used")));
    // The requests load; only the lists that disagree are left out.
    const auto seven = rowOf(table, "req-7");
    QCOMPARE(table.serverTokens().countFor(seven), size_t(0));
    QCOMPARE(table.clientTokens().countFor(seven), size_t(11));
    QCOMPARE(table.clientTokens().countFor(rowOf(table, "req-8")), size_t(0));
    const auto nine = rowOf(table, "req-9");
    QCOMPARE(table.clientTokens().countFor(nine), size_t(3));
    QCOMPARE(table.clientTokens().tokensFor(nine), qint64(3)); // counts unsaid: one each as far as the list goes
}

void tst_SeedTokenTimes::parallelChunksMergeInOrder()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("many.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // About 3 MB: split across two workers. Every fifth request has no
    // token times, every seventh only client times; one duplicate id.
    const int requests = 6000;
    for (int i = 0; i < requests; ++i) {
        const qint64 start = qint64(i) * 1000;
        const int id = i == requests - 1 ? 17 : i; // the last one repeats req-17
        QByteArray line = QStringLiteral(R"({"request_id":"req-%1","prompt_tokens":10,"output_tokens":40,)"
                                         R"("client_send_ms":%2,"gateway_arrival_ms":%2,"queue_enter_ms":%2,)"
                                         R"("prefill_start_ms":%2,"prefill_end_ms":%2,"first_token_server_ms":%3,)"
                                         R"("first_token_client_ms":%4,"last_token_client_ms":%5)")
                              .arg(id)
                              .arg(start)
                              .arg(start + 10)
                              .arg(start + 12)
                              .arg(start + 12 + 39 * 20)
                              .toUtf8();
        if (i % 5 != 0) {
            QByteArray server = ",\"server_token_ms\":[";
            QByteArray client = ",\"client_token_ms\":[";
            for (int k = 0; k < 40; ++k) {
                server += QByteArray::number(start + 10 + 20 * k) + (k + 1 < 40 ? "," : "]");
                client += QByteArray::number(start + 12 + 20 * k + (k % 3) * 0.125, 'f', 3) + (k + 1 < 40 ? "," : "]");
            }
            if (i % 7 != 0)
                line += server;
            line += client;
        }
        file.write(line + "}\n");
    }
    file.close();
    LoadOptions one;
    one.threads = 1;
    LoadOptions two;
    two.threads = 2;
    const LoadResult a = TraceFileLoader::load(path, one);
    const LoadResult b = TraceFileLoader::load(path, two);
    QVERIFY(a.ok() && b.ok());
    const auto &ta = a.store->requests;
    const auto &tb = b.store->requests;
    QCOMPARE(ta.rowCount(), requests - 1);
    QCOMPARE(tb.rowCount(), requests - 1);
    QCOMPARE(b.store->rejected.size(), size_t(1));
    QCOMPARE(tb.clientTokens().rowCount(), tb.rowCount());
    QCOMPARE(tb.serverTokens().rowCount(), tb.rowCount());
    for (qsizetype row = 0; row < tb.rowCount(); ++row) {
        QCOMPARE(tb.id(row), ta.id(row));
        QCOMPARE(tb.clientTokens().times(row), ta.clientTokens().times(row));
        QCOMPARE(tb.serverTokens().times(row), ta.serverTokens().times(row));
        const int i = row;
        QCOMPARE(tb.clientTokens().countFor(row), size_t(i % 5 != 0 ? 40 : 0));
        QCOMPARE(tb.serverTokens().countFor(row), size_t(i % 5 != 0 && i % 7 != 0 ? 40 : 0));
    }
    const qsizetype last = tb.rowCount() - 1;
    QCOMPARE(tb.clientTokens().times(last)[2], qint64(last) * 1000 * kMs + (12 + 40) * kMs + 250'000);
}

void tst_SeedTokenTimes::jsonArrayOfRecordsKeepsTokenTimes()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("array.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"([
  {"request_id":"a","prompt_tokens":10,"output_tokens":3,"client_send_ms":0,"gateway_arrival_ms":1,
   "queue_enter_ms":2,"prefill_start_ms":3,"prefill_end_ms":4,"first_token_server_ms":5,
   "first_token_client_ms":6,"last_token_client_ms":30,"client_token_ms":[6,18,30]},
  {"request_id":"b","prompt_tokens":10,"output_tokens":3,"client_send_ms":0,"gateway_arrival_ms":1,
   "queue_enter_ms":2,"prefill_start_ms":3,"prefill_end_ms":4,"first_token_server_ms":5,
   "first_token_client_ms":6,"last_token_client_ms":30}
])");
    file.close();
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const auto &table = result.store->requests;
    QCOMPARE(table.rowCount(), 2);
    QCOMPARE(table.clientTokens().times(0), (std::vector<qint64>{6 * kMs, 18 * kMs, 30 * kMs}));
    QCOMPARE(table.clientTokens().countFor(1), size_t(0));
}

void tst_SeedTokenTimes::spanClientCountsExpandToTokens()
{
    SpanRecord span;
    const auto array = [&span](const char *key, std::vector<std::string> elements) {
        SpanAttribute &attribute = span.attributes.add();
        attribute.key = key;
        attribute.value.type = AttributeValue::Type::Array;
        attribute.value.elements = std::move(elements);
    };
    array("tracelane.tokens.client_unix_nano", {"100", "250", "400"});
    array("tracelane.tokens.client_counts", {"1", "3", "2"});
    std::vector<TracelaneContract::Problem> problems;
    TracelaneContract::SpanContract contract = TracelaneContract::read(span, &problems);
    QVERIFY(problems.empty());
    QCOMPARE(contract.clientTokens, (std::vector<qint64>{100, 250, 250, 250, 400, 400}));

    // A count list that does not fit is ignored with a reason; the times stay.
    span.clear();
    array("tracelane.tokens.client_unix_nano", {"100", "250"});
    array("tracelane.tokens.client_counts", {"1", "0"});
    contract = TracelaneContract::read(span, &problems);
    QCOMPARE(problems.size(), size_t(1));
    QCOMPARE(problems[0].field, QStringLiteral("tracelane.tokens.client_counts"));
    QCOMPARE(contract.clientTokens, (std::vector<qint64>{100, 250}));

    // One span event per client event, with its token count.
    span.clear();
    problems.clear();
    for (const auto &[time, count] : {std::pair{qint64(500), "1"}, std::pair{qint64(700), "4"}}) {
        SpanEventRecord &event = span.events.add();
        event.name = "tracelane.token";
        event.time = time;
        SpanAttribute &attribute = event.attributes.add();
        attribute.key = "tracelane.token.count";
        attribute.value.type = AttributeValue::Type::Int;
        attribute.value.text = count;
    }
    contract = TracelaneContract::read(span, &problems);
    QCOMPARE(contract.clientTokens, (std::vector<qint64>{500, 700, 700, 700, 700}));
}

QTEST_GUILESS_MAIN(tst_SeedTokenTimes)
#include "tst_seedtokentimes.moc"
