#include "io/IdRepeatCheck.h"
#include "io/LoadControl.h"
#include "io/TraceFileLoader.h"
#include "support/TestData.h"

#include <QTemporaryDir>
#include <QTest>

#include <thread>

using TestData::fixture;

namespace {

QByteArray record(int index, const QByteArray &extra = {})
{
    const double start = index * 1000.0;
    return QStringLiteral(R"({"request_id":"req-%1","prompt_tokens":100,"output_tokens":11,"client_send_ms":%2,)"
                          R"("gateway_arrival_ms":%3,"queue_enter_ms":%4,"prefill_start_ms":%5,)"
                          R"("prefill_end_ms":%6,"first_token_server_ms":%7,"first_token_client_ms":%8,)"
                          R"("last_token_client_ms":%9)")
               .arg(index)
               .arg(start)
               .arg(start + 1)
               .arg(start + 2)
               .arg(start + 3)
               .arg(start + 4)
               .arg(start + 5)
               .arg(start + 6)
               .arg(start + 26)
               .toUtf8()
        + extra + "}";
}

} // namespace

class tst_SeedLoader : public QObject
{
    Q_OBJECT
private slots:
    void malformedInputs_data();
    void malformedInputs();
    void strictModeStopsAtFirstRejected();
    void classAttributesAreDiscovered();
    void projectionStoresOnlyNamedAttributes();
    void projectionJudgesRecordsAlike_data();
    void projectionJudgesRecordsAlike();
    void timestampsAreExactNanoseconds();
    void chunksAgreeWithSingleThread();
    void duplicateAcrossChunksIsRejected();
    void columnMergeEqualsRowByRowMerge();
    void duplicateFoundByPartitionedCheck();
    void repeatCheckOnHashes();
    void hundredMegabyteLineIsRejectedNotRead();
    void cancelStopsTheLoad();
    void missingFileIsAFatalError();
};

void tst_SeedLoader::malformedInputs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("loaded");
    QTest::addColumn<int>("rejected");
    QTest::addColumn<int>("firstLine");
    QTest::addColumn<QString>("firstField");
    QTest::addColumn<QString>("firstReason");
    QTest::addColumn<QString>("fatal");
    QTest::addColumn<QString>("notice");

    QTest::newRow("empty file") << "empty.jsonl" << 0 << 0 << 0 << ""
                                << ""
                                << "the file is empty"
                                << "";
    QTest::newRow("only blank lines") << "only-blank-lines.jsonl" << 0 << 0 << 0 << ""
                                      << ""
                                      << "only blank lines"
                                      << "";
    QTest::newRow("invalid JSON") << "invalid-json.jsonl" << 2 << 1 << 2 << "prompt_tokens"
                                  << "invalid JSON at column 46"
                                  << ""
                                  << "";
    QTest::newRow("missing fields") << "missing-field.jsonl" << 2 << 1 << 2 << "queue_enter_ms"
                                    << "missing fields: queue_enter_ms, prefill_end_ms"
                                    << ""
                                    << "";
    QTest::newRow("wrong types") << "wrong-type.jsonl" << 2 << 3 << 2 << "prompt_tokens"
                                 << "must be a whole number of tokens, got a string"
                                 << ""
                                 << "";
    QTest::newRow("non-finite numbers") << "non-finite.jsonl" << 2 << 3 << 2 << "prefill_end_ms"
                                        << "non-finite number (NaN or Infinity)"
                                        << ""
                                        << "";
    QTest::newRow("zero or negative tokens") << "zero-tokens.jsonl" << 2 << 2 << 2 << "output_tokens"
                                             << "token counts must be positive, got 0"
                                             << ""
                                             << "";
    QTest::newRow("non-monotonic clocks") << "non-monotonic.jsonl" << 2 << 2 << 2 << "prefill_end_ms"
                                          << "timestamps are not monotonic: prefill_end_ms (2020.000 ms) is "
                                             "before prefill_start_ms (2025.000 ms)"
                                          << ""
                                          << "";
    QTest::newRow("duplicate request id") << "duplicate-id.jsonl" << 3 << 1 << 3 << "request_id"
                                          << "duplicate request_id; first seen on line 1"
                                          << ""
                                          << "";
    QTest::newRow("byte-order mark") << "bom.jsonl" << 2 << 0 << 0 << ""
                                     << ""
                                     << ""
                                     << "starts with a UTF-8 byte-order mark";
    QTest::newRow("CRLF line ends") << "crlf.jsonl" << 3 << 0 << 0 << ""
                                    << ""
                                    << ""
                                    << "CRLF line ends";
    QTest::newRow("blank lines") << "blank-lines.jsonl" << 2 << 0 << 0 << ""
                                 << ""
                                 << ""
                                 << "";
    QTest::newRow("truncated last line") << "truncated-last-line.jsonl" << 2 << 1 << 3 << "client_send_ms"
                                         << "ends in the middle of this record (truncated last line)"
                                         << ""
                                         << "";
    QTest::newRow("not an object") << "not-an-object.jsonl" << 2 << 3 << 2 << ""
                                   << "a record must be a JSON object, got an array"
                                   << ""
                                   << "";
    QTest::newRow("nested fields") << "nested-field.jsonl" << 2 << 1 << 3 << "request_id"
                                   << "must be a string, got an object or array"
                                   << ""
                                   << "field 'messages' is not a scalar";
    QTest::newRow("attribute values") << "attribute-values.jsonl" << 4 << 3 << 2 << "tenant_score"
                                      << "non-finite number 1e999"
                                      << ""
                                      << "field 'tags' is not a scalar";
    QTest::newRow("UTF-16") << "utf16.jsonl" << 0 << 0 << 0 << ""
                            << ""
                            << "UTF-16"
                            << "";
}

void tst_SeedLoader::malformedInputs()
{
    QFETCH(QString, file);
    QFETCH(int, loaded);
    QFETCH(int, rejected);
    QFETCH(int, firstLine);
    QFETCH(QString, firstField);
    QFETCH(QString, firstReason);
    QFETCH(QString, fatal);
    QFETCH(QString, notice);

    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/") + file), LoadOptions{});
    if (!fatal.isEmpty()) {
        QVERIFY2(result.fatalError.contains(fatal), qPrintable(result.fatalError));
        return;
    }
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const auto &store = *result.store;
    QCOMPARE(store.requests.rowCount(), loaded);
    QCOMPARE(int(store.rejected.size()), rejected);
    if (rejected > 0) {
        const auto &first = store.rejected.front();
        QCOMPARE(first.file, file);
        QCOMPARE(first.line, firstLine);
        QCOMPARE(first.field, firstField);
        QVERIFY2(first.reason.contains(firstReason), qPrintable(first.reason));
    }
    if (!notice.isEmpty()) {
        QVERIFY(!store.notices.empty());
        QVERIFY2(store.notices.front().message.contains(notice), qPrintable(store.notices.front().message));
    } else {
        QVERIFY(store.notices.empty());
    }
}

void tst_SeedLoader::strictModeStopsAtFirstRejected()
{
    LoadOptions options;
    options.strict = true;
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/wrong-type.jsonl")), options);
    QVERIFY(!result.ok());
    QVERIFY2(result.fatalError.startsWith(QStringLiteral("strict mode: wrong-type.jsonl:2: request r-002")),
             qPrintable(result.fatalError));
    const LoadResult clean = TraceFileLoader::load(fixture(QStringLiteral("seed/burst.jsonl")), options);
    QVERIFY(clean.ok());
    QCOMPARE(clean.store->requests.rowCount(), 10);
}

void tst_SeedLoader::classAttributesAreDiscovered()
{
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("seed/multiclass.jsonl")), LoadOptions{});
    QVERIFY(result.ok());
    const auto &requests = result.store->requests;
    QCOMPARE(requests.rowCount(), 240);
    QCOMPARE(int(requests.attributes().size()), 4);
    const auto *region = requests.attribute(QStringLiteral("region"));
    QVERIFY(region);
    QVERIFY(!region->isNumeric());
    QCOMPARE(region->valueCount(), 4); // absent + three regions
    const auto *cached = requests.attribute(QStringLiteral("cached_prefix"));
    QVERIFY(cached);
    QCOMPARE(cached->text(0).isEmpty(), false);
    QVERIFY(cached->values().contains(QStringLiteral("true")));
    const auto *tier = requests.attribute(QStringLiteral("tenant_tier"));
    QVERIFY(tier);
    QVERIFY(tier->isNumeric());
    for (qsizetype row = 0; row < requests.rowCount(); ++row)
        QVERIFY(tier->number(row) >= 1 && tier->number(row) <= 3);
}

void tst_SeedLoader::projectionStoresOnlyNamedAttributes()
{
    const QString path = fixture(QStringLiteral("seed/multiclass.jsonl"));
    const LoadResult whole = TraceFileLoader::load(path, LoadOptions{});
    LoadOptions options;
    options.attributes = AttributeProjection::none();
    options.attributes.names << QStringLiteral("REGION"); // compared case-insensitively
    options.attributes.nameContains << QStringLiteral("tier");
    const LoadResult projected = TraceFileLoader::load(path, options);
    QVERIFY(whole.ok() && projected.ok());
    const auto &all = whole.store->requests;
    const auto &some = projected.store->requests;
    QCOMPARE(int(all.attributes().size()), 4);
    QCOMPARE(int(some.attributes().size()), 2);
    QCOMPARE(some.attributes()[0].name(), QStringLiteral("region"));
    QCOMPARE(some.attributes()[1].name(), QStringLiteral("tenant_tier"));
    QCOMPARE(some.rowCount(), 240);
    for (qsizetype row = 0; row < some.rowCount(); ++row) {
        QCOMPARE(some.id(row), all.id(row));
        QCOMPARE(some.sourceLine(row), all.sourceLine(row));
        for (int s = 0; s < kStampCount; ++s)
            QCOMPARE(some.stamp(row, Stamp(s)), all.stamp(row, Stamp(s)));
        QCOMPARE(some.attribute(QStringLiteral("region"))->text(row),
                 all.attribute(QStringLiteral("region"))->text(row));
        QCOMPARE(some.attribute(QStringLiteral("tenant_tier"))->number(row),
                 all.attribute(QStringLiteral("tenant_tier"))->number(row));
    }
    options.attributes = AttributeProjection::none();
    const LoadResult bare = TraceFileLoader::load(path, options);
    QVERIFY(bare.ok());
    QCOMPARE(int(bare.store->requests.attributes().size()), 0);
    QCOMPARE(bare.store->requests.rowCount(), 240);
}

void tst_SeedLoader::projectionJudgesRecordsAlike_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("threads");
    for (const char *name :
         {"malformed/attribute-values.jsonl", "malformed/nested-field.jsonl", "malformed/non-finite.jsonl",
          "malformed/wrong-type.jsonl", "malformed/invalid-json.jsonl", "malformed/duplicate-id.jsonl",
          "malformed/token-times.jsonl", "fuzz-regressions/seed-attr-pm1e308-exceed.jsonl",
          "fuzz-regressions/seed-numeric-attribute-only-rejected.jsonl", "seed/multiclass.jsonl"}) {
        for (const int threads : {1, 3})
            QTest::addRow("%s, %d threads", name, threads) << QString::fromLatin1(name) << threads;
    }
}

// A field left out of the projection is still judged: the same records
// load and the same are rejected, with the same line, field and reason.
void tst_SeedLoader::projectionJudgesRecordsAlike()
{
    QFETCH(QString, file);
    QFETCH(int, threads);
    LoadOptions options;
    options.threads = threads;
    const LoadResult whole = TraceFileLoader::load(fixture(file), options);
    options.attributes = AttributeProjection::none();
    const LoadResult projected = TraceFileLoader::load(fixture(file), options);
    QCOMPARE(projected.fatalError, whole.fatalError);
    const auto &a = *whole.store;
    const auto &b = *projected.store;
    QCOMPARE(b.requests.rowCount(), a.requests.rowCount());
    QCOMPARE(b.rejected.size(), a.rejected.size());
    for (size_t i = 0; i < a.rejected.size(); ++i)
        QCOMPARE(b.rejected[i].toString(), a.rejected[i].toString());
    QCOMPARE(b.notices.size(), a.notices.size());
    for (size_t i = 0; i < a.notices.size(); ++i)
        QCOMPARE(b.notices[i].toString(), a.notices[i].toString());
    for (qsizetype row = 0; row < a.requests.rowCount(); ++row) {
        QCOMPARE(b.requests.sourceLine(row), a.requests.sourceLine(row));
        QCOMPARE(b.requests.stamp(row, Stamp::LastTokenClient), a.requests.stamp(row, Stamp::LastTokenClient));
    }
    QCOMPARE(int(b.requests.attributes().size()), 0);
}

void tst_SeedLoader::timestampsAreExactNanoseconds()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("exact.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"request_id":"a","prompt_tokens":1,"output_tokens":2,"client_send_ms":1700000000123.456789,)"
               R"("gateway_arrival_ms":1700000000124,"queue_enter_ms":1.7000000001245e12,)"
               R"("prefill_start_ms":1700000000124.5000004,"prefill_end_ms":1700000000124.5000005,)"
               R"("first_token_server_ms":1700000000125,"first_token_client_ms":1700000000126,)"
               R"("last_token_client_ms":1700000000127})"
               "\n");
    file.close();
    const LoadResult result = TraceFileLoader::load(path, LoadOptions{});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const auto &requests = result.store->requests;
    QCOMPARE(requests.rowCount(), 1);
    QCOMPARE(requests.stamp(0, Stamp::ClientSend), Q_INT64_C(1700000000123456789));
    QCOMPARE(requests.stamp(0, Stamp::GatewayArrival), Q_INT64_C(1700000000124000000));
    QCOMPARE(requests.stamp(0, Stamp::QueueEnter), Q_INT64_C(1700000000124500000));
    QCOMPARE(requests.stamp(0, Stamp::PrefillStart), Q_INT64_C(1700000000124500000)); // 0.4 ns rounds down
    QCOMPARE(requests.stamp(0, Stamp::PrefillEnd), Q_INT64_C(1700000000124500001));   // 0.5 ns rounds up
    QCOMPARE(requests.phaseNs(0, Phase::NetworkIn), Q_INT64_C(543211));
}

void tst_SeedLoader::chunksAgreeWithSingleThread()
{
    // Enough bytes for several line-aligned ranges, with a bad record in
    // each region so line numbers must be carried across ranges.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("many.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const int count = 12000;
    for (int i = 1; i <= count; ++i) {
        if (i % 3000 == 0)
            file.write("{\"request_id\": \"broken\"\n");
        else
            file.write(record(i, i % 2 ? QByteArray(R"(,"region":"eu")") : QByteArray(R"(,"region":"us")")) + "\n");
    }
    file.close();
    LoadOptions one;
    one.threads = 1;
    LoadOptions four;
    four.threads = 4;
    const LoadResult a = TraceFileLoader::load(path, one);
    const LoadResult b = TraceFileLoader::load(path, four);
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(a.store->requests.rowCount(), count - 4);
    QCOMPARE(b.store->requests.rowCount(), count - 4);
    QCOMPARE(int(b.store->rejected.size()), 4);
    for (int k = 0; k < 4; ++k) {
        QCOMPARE(a.store->rejected[size_t(k)].line, (k + 1) * 3000);
        QCOMPARE(b.store->rejected[size_t(k)].line, (k + 1) * 3000);
    }
    // The store's budget: at most 200 bytes per flat request.
    const double bytesPerRequest = double(b.store->requests.memoryBytes()) / double(b.store->requests.rowCount());
    QVERIFY2(bytesPerRequest <= 200.0, qPrintable(QString::number(bytesPerRequest)));
    for (qsizetype row = 0; row < a.store->requests.rowCount(); row += 997) {
        QCOMPARE(b.store->requests.idText(row), a.store->requests.idText(row));
        QCOMPARE(b.store->requests.sourceLine(row), a.store->requests.sourceLine(row));
        QCOMPARE(b.store->requests.attribute(QStringLiteral("region"))->text(row),
                 a.store->requests.attribute(QStringLiteral("region"))->text(row));
    }
}

void tst_SeedLoader::duplicateAcrossChunksIsRejected()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dupes.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 1; i <= 10000; ++i)
        file.write(record(i) + "\n");
    file.write(record(5) + "\n"); // line 10001 repeats line 5's id
    file.close();
    LoadOptions options;
    options.threads = 3;
    const LoadResult result = TraceFileLoader::load(path, options);
    QVERIFY(result.ok());
    QCOMPARE(result.store->requests.rowCount(), 10000);
    QCOMPARE(int(result.store->rejected.size()), 1);
    QCOMPARE(result.store->rejected[0].line, 10001);
    QCOMPARE(result.store->rejected[0].reason, QStringLiteral("duplicate request_id; first seen on line 5"));
}

void tst_SeedLoader::columnMergeEqualsRowByRowMerge()
{
    // The chunks of a JSON Lines file are appended column by column; the same
    // records as one JSON array go through the row-by-row merge. Attribute
    // values arrive in a different order in each chunk, one attribute turns
    // from numbers to text and back, one stays numeric, one appears only late.
    QTemporaryDir dir;
    const QString lines = dir.filePath(QStringLiteral("records.jsonl"));
    const QString array = dir.filePath(QStringLiteral("records.json"));
    QFile jsonl(lines);
    QFile json(array);
    QVERIFY(jsonl.open(QIODevice::WriteOnly) && json.open(QIODevice::WriteOnly));
    json.write("[\n");
    const int count = 70000;
    const char *early[] = {"eu", "us"};
    const char *late[] = {"ap", "us", "eu"};
    for (int i = 1; i <= count; ++i) {
        QByteArray extra = ",\"region\":\"" + QByteArray(i < count / 2 ? early[i % 2] : late[i % 3]) + "\"";
        // tier: numbers, text in the second quarter, numbers again: the last
        // chunk is numeric and joins a column that turned categorical.
        if (i % 7 != 0 && (i < count / 4 || i >= count / 2))
            extra += ",\"tier\":" + QByteArray::number(i % 5);
        else if (i % 7 != 0)
            extra += ",\"tier\":\"" + QByteArray(i % 2 ? "gold" : "silver") + "\"";
        if (i % 11 != 0)
            extra += ",\"score\":" + QByteArray::number(i * 0.5);
        if (i > count * 9 / 10)
            extra += ",\"late\":\"yes\"";
        extra += i % 3 ? ",\"cached_prefix\":true" : ",\"cached_prefix\":false";
        const QByteArray text = record(i, extra);
        jsonl.write(text + "\n");
        json.write(text + (i < count ? ",\n" : "\n]\n"));
    }
    jsonl.close();
    json.close();
    LoadOptions options;
    options.threads = 3;
    const LoadResult merged = TraceFileLoader::load(lines, options);
    const LoadResult reference = TraceFileLoader::load(array, options);
    QVERIFY(merged.ok() && reference.ok());
    QCOMPARE(reference.store->format, QStringLiteral("seed-json-array"));
    const auto &a = merged.store->requests;
    const auto &b = reference.store->requests;
    QCOMPARE(a.rowCount(), qsizetype(count));
    QCOMPARE(b.rowCount(), qsizetype(count));
    QVERIFY(merged.store->rejected.empty());
    QCOMPARE(a.attributes().size(), b.attributes().size());
    for (size_t c = 0; c < a.attributes().size(); ++c) {
        const auto &x = a.attributes()[c];
        const auto &y = b.attributes()[c];
        QCOMPARE(x.name(), y.name());
        QCOMPARE(x.kind(), y.kind());
        QCOMPARE(x.values(), y.values());
        QCOMPARE(x.rowCount(), a.rowCount());
    }
    QCOMPARE(a.attribute(QStringLiteral("tier"))->kind(), AttributeColumn::Kind::Categorical);
    QCOMPARE(a.attribute(QStringLiteral("score"))->kind(), AttributeColumn::Kind::Numeric);
    for (qsizetype row = 0; row < a.rowCount(); ++row) {
        if (a.id(row) != b.id(row) || a.sourceLine(row) + 1 != b.sourceLine(row)
            || a.promptTokens(row) != b.promptTokens(row) || a.outputTokens(row) != b.outputTokens(row))
            QFAIL(qPrintable(QStringLiteral("row %1 differs").arg(row)));
        for (int s = 0; s < kStampCount; ++s) {
            if (a.stamp(row, Stamp(s)) != b.stamp(row, Stamp(s)))
                QFAIL(qPrintable(QStringLiteral("row %1 stamp %2 differs").arg(row).arg(s)));
        }
        for (size_t c = 0; c < a.attributes().size(); ++c) {
            const auto &x = a.attributes()[c];
            const auto &y = b.attributes()[c];
            if (x.text(row) != y.text(row) || (!x.isNumeric() && x.code(row) != y.code(row)))
                QFAIL(
                    qPrintable(QStringLiteral("row %1 %2: %3 vs %4").arg(row).arg(x.name(), x.text(row), y.text(row))));
        }
    }
    QCOMPARE(a.attribute(QStringLiteral("tier"))->text(6), QString()); // line 7: absent
    QCOMPARE(a.attribute(QStringLiteral("tier"))->text(0), QStringLiteral("1"));
    QCOMPARE(a.attribute(QStringLiteral("tier"))->text(count - 2), QStringLiteral("4")); // line 69999: 69999 % 5
    QCOMPARE(a.attribute(QStringLiteral("score"))->text(10), QString());                 // line 11: absent
    QCOMPARE(a.attribute(QStringLiteral("score"))->number(count - 1), 35000.0);
    QCOMPARE(a.attribute(QStringLiteral("late"))->text(0), QString());
    QCOMPARE(a.attribute(QStringLiteral("late"))->text(count - 1), QStringLiteral("yes"));
}

void tst_SeedLoader::duplicateFoundByPartitionedCheck()
{
    // Past 65,536 records the duplicate check is split over the threads by
    // hash; a repeat must still be found and reported with both lines.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dupes.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 1; i <= 70000; ++i)
        file.write(record(i) + "\n");
    file.write(record(40000) + "\n"); // line 70001 repeats line 40000's id
    file.write(record(3) + "\n");     // line 70002 repeats line 3's id
    file.close();
    for (const int threads : {1, 2, 3}) {
        LoadOptions options;
        options.threads = threads;
        const LoadResult result = TraceFileLoader::load(path, options);
        QVERIFY(result.ok());
        QCOMPARE(result.store->requests.rowCount(), 70000);
        QCOMPARE(int(result.store->rejected.size()), 2);
        QCOMPARE(result.store->rejected[0].line, 70001);
        QCOMPARE(result.store->rejected[0].reason, QStringLiteral("duplicate request_id; first seen on line 40000"));
        QCOMPARE(result.store->rejected[1].line, 70002);
        QCOMPARE(result.store->rejected[1].reason, QStringLiteral("duplicate request_id; first seen on line 3"));
        QCOMPARE(result.store->requests.idText(69999), QStringLiteral("req-70000"));
    }
}

void tst_SeedLoader::hundredMegabyteLineIsRejectedNotRead()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("huge-line.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(record(1) + "\n");
    const QByteArray block(qsizetype{1024} * 1024, 'x');
    file.write(R"({"request_id":"huge","note":")");
    for (int i = 0; i < 100; ++i)
        file.write(block);
    file.write("\"}\n");
    file.write(record(3) + "\n");
    file.close();
    const LoadResult result = TraceFileLoader::load(path, LoadOptions{});
    QVERIFY(result.ok());
    QCOMPARE(result.store->requests.rowCount(), 2);
    QCOMPARE(int(result.store->rejected.size()), 1);
    QCOMPARE(result.store->rejected[0].line, 2);
    QVERIFY2(result.store->rejected[0].reason.startsWith(QStringLiteral("record is 100.0 MiB long, over the 16.0 MiB")),
             qPrintable(result.store->rejected[0].reason));
}

void tst_SeedLoader::cancelStopsTheLoad()
{
    LoadControl control;
    control.cancel();
    const LoadResult result
        = TraceFileLoader::load(fixture(QStringLiteral("seed/multiclass.jsonl")), LoadOptions{}, &control);
    QVERIFY(result.cancelled);
    QVERIFY(!result.ok());
    QCOMPARE(result.store->requests.rowCount(), 0);
}

void tst_SeedLoader::missingFileIsAFatalError()
{
    const LoadResult result = TraceFileLoader::load(QStringLiteral("/nonexistent/trace.jsonl"), LoadOptions{});
    QCOMPARE(result.fatalError, QStringLiteral("/nonexistent/trace.jsonl: no such file"));
}

// The check on the hashes alone: equal hashes anywhere in a part, across
// chunks, say "may repeat"; chunks hashed into different parts cannot be
// compared part by part, and go to the merge that compares the ids.
void tst_SeedLoader::repeatCheckOnHashes()
{
    const auto column = [](std::initializer_list<quint64> values) {
        ColumnVector<quint64> hashes;
        for (const quint64 value : values)
            hashes.push_back(value);
        return hashes;
    };
    QVERIFY(!IdRepeatCheck::hasEqualHashes(column({})));
    QVERIFY(!IdRepeatCheck::hasEqualHashes(column({1, 2, 3, 0x10001})));
    QVERIFY(IdRepeatCheck::hasEqualHashes(column({7, 2, 3, 7})));
    // Past 8 values the hashes are bucketed by their low bits first.
    ColumnVector<quint64> many;
    for (quint64 i = 0; i < 100'000; ++i)
        many.push_back(i * 0x9E3779B97F4A7C15ULL);
    QVERIFY(!IdRepeatCheck::hasEqualHashes(many));
    many.push_back(77 * 0x9E3779B97F4A7C15ULL);
    QVERIFY(IdRepeatCheck::hasEqualHashes(many));
    // Two chunks of two parts: a repeat across the chunks is found.
    const auto chunks = [&](quint64 repeated) {
        std::vector<IdRepeatCheck::Hashes> byChunk(2);
        byChunk[0].push_back(column({1, 3}));
        byChunk[0].push_back(column({2}));
        byChunk[1].push_back(column({5, repeated}));
        byChunk[1].push_back(column({4}));
        return byChunk;
    };
    QVERIFY(!IdRepeatCheck::mayRepeat(chunks(9)));
    QVERIFY(IdRepeatCheck::mayRepeat(chunks(3)));
    auto uneven = chunks(9);
    uneven[1].pop_back();
    QVERIFY(IdRepeatCheck::mayRepeat(std::move(uneven)));
    QVERIFY(!IdRepeatCheck::mayRepeat({}));
}

QTEST_GUILESS_MAIN(tst_SeedLoader)
#include "tst_seedloader.moc"
