#include "io/LoadControl.h"
#include "io/TraceFileLoader.h"
#include "support/TestData.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using TestData::fixture;
using TestData::realdata;

namespace {

QStringList rejectedText(const TraceStore &store)
{
    QStringList lines;
    for (const auto &record : store.rejected)
        lines << record.toString();
    return lines;
}

qsizetype rowOf(const SpanTable &spans, std::string_view spanId)
{
    for (qsizetype row = 0; row < spans.rowCount(); ++row) {
        if (spans.spanId(row) == spanId)
            return row;
    }
    return -1;
}

int countFlag(const SpanTable &spans, quint8 flag)
{
    int count = 0;
    for (qsizetype row = 0; row < spans.rowCount(); ++row)
        count += (spans.flags(row) & flag) ? 1 : 0;
    return count;
}

} // namespace

class tst_JaegerLoader : public QObject
{
    Q_OBJECT
private slots:
    void realDataFiles_data();
    void realDataFiles();
    void otlpAndJaegerConversionAgree();
    void droppedLeadingZerosArePadded();
    void genAiTraceCategoriesAndUsage();
    void criticalPathCasesLoad_data();
    void criticalPathCasesLoad();
    void malformedInputs_data();
    void malformedInputs();
};

void tst_JaegerLoader::realDataFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("spans");
    QTest::addColumn<int>("services");
    QTest::addColumn<int>("orphans");
    QTest::addColumn<int>("duplicates");
    QTest::addColumn<int>("errors");
    QTest::addColumn<int>("roots");

    QTest::newRow("query API wrapper, duplicate span")
        << realdata(QStringLiteral("jaeger-ui/otlp2jaeger-out.json")) << 2 << 1 << 2 << 1 << 0 << 0;
    QTest::newRow("bare trace, 31-char trace id")
        << realdata(QStringLiteral("jaeger-ui/spanAmongEachOtherGroupedAndSpans.json")) << 17 << 2 << 0 << 0 << 0 << 1;
    QTest::newRow("GenAI trace with _comment")
        << realdata(QStringLiteral("jaeger-ui/genaiTestTrace.json")) << 57 << 10 << 0 << 0 << 1 << 1;
}

void tst_JaegerLoader::realDataFiles()
{
    QFETCH(QString, file);
    QFETCH(int, spans);
    QFETCH(int, services);
    QFETCH(int, orphans);
    QFETCH(int, duplicates);
    QFETCH(int, errors);
    QFETCH(int, roots);
    QCOMPARE(TraceFileLoader::detect(file), TraceFormat::JaegerJson);
    const LoadResult result = TraceFileLoader::load(file, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    const TraceStore &store = *result.store;
    QCOMPARE(store.format, QStringLiteral("jaeger-json"));
    QCOMPARE(rejectedText(store), QStringList());
    QCOMPARE(store.spans.rowCount(), spans);
    QCOMPARE(store.workflows.rowCount(), 1);
    QSet<QString> names;
    int rootCount = 0;
    for (qsizetype row = 0; row < store.spans.rowCount(); ++row) {
        names.insert(store.spans.service(row));
        rootCount += store.spans.parent(row) < 0 && !(store.spans.flags(row) & SpanTable::Orphan) ? 1 : 0;
    }
    QCOMPARE(names.size(), services);
    QCOMPARE(countFlag(store.spans, SpanTable::Orphan), orphans);
    QCOMPARE(countFlag(store.spans, SpanTable::Duplicate), duplicates);
    QCOMPARE(countFlag(store.spans, SpanTable::Error), errors);
    QCOMPARE(rootCount, roots);
    QCOMPARE(store.requests.rowCount(), 1);
}

void tst_JaegerLoader::otlpAndJaegerConversionAgree()
{
    // otlp2jaeger-out.json is Jaeger's own conversion of otlp2jaeger-in.json:
    // the same spans must come out with the same ids, times and parents.
    const LoadResult otlp = TraceFileLoader::load(realdata(QStringLiteral("jaeger-ui/otlp2jaeger-in.json")), {});
    const LoadResult jaeger = TraceFileLoader::load(realdata(QStringLiteral("jaeger-ui/otlp2jaeger-out.json")), {});
    QVERIFY(otlp.ok());
    QVERIFY(jaeger.ok());
    const SpanTable &a = otlp.store->spans;
    const SpanTable &b = jaeger.store->spans;
    QCOMPARE(b.rowCount(), a.rowCount());
    QCOMPARE(jaeger.store->workflows.traceIdText(0), otlp.store->workflows.traceIdText(0));
    QCOMPARE(jaeger.store->workflows.traceIdText(0), QStringLiteral("83a9efd15c1c98a977e0711cc93ee28b"));
    for (qsizetype row = 0; row < a.rowCount(); ++row) {
        QCOMPARE(b.spanIdText(row), a.spanIdText(row));
        QCOMPARE(b.name(row), a.name(row));
        QCOMPARE(b.start(row), a.start(row)); // µs in Jaeger, ns in OTLP: 1706678909209712000
        QCOMPARE(b.end(row), a.end(row));
        QCOMPARE(b.kind(row), a.kind(row)); // span.kind tag "server" vs kind 2
        QCOMPARE(b.service(row), a.service(row));
        QCOMPARE(b.flags(row), a.flags(row));
        QCOMPARE(b.attributeText(row, "peer.service"), a.attributeText(row, "peer.service"));
    }
    QCOMPARE(a.start(0), 1'706'678'909'209'712'000LL);
    QCOMPARE(a.duration(0), 123'000LL);
}

void tst_JaegerLoader::droppedLeadingZerosArePadded()
{
    const LoadResult result
        = TraceFileLoader::load(realdata(QStringLiteral("jaeger-ui/spanAmongEachOtherGroupedAndSpans.json")), {});
    QVERIFY(result.ok());
    const SpanTable &spans = result.store->spans;
    QCOMPARE(result.store->workflows.traceIdText(0), QStringLiteral("0df84e36b9e2ee3815d07f0867a5be1f"));
    const qsizetype padded = rowOf(spans, "0a68c6983a6d81a2"); // "a68c6983a6d81a2" in the file
    QVERIFY(padded >= 0);
    const qsizetype parent = rowOf(spans, "6f9bbe751e5fd944");
    QCOMPARE(spans.parent(padded), qint32(parent));
    QCOMPARE(spans.parent(parent), qint32(rowOf(spans, "6962df17f54c3741")));
    QCOMPARE(spans.service(parent), QStringLiteral("customers-service"));
    QCOMPARE(spans.kind(0), SpanKind::Client); // span.kind tag
    QCOMPARE(result.store->workflows.rootSpan[0], qint32(rowOf(spans, "9afcdf2e24e8d70a")));
    QCOMPARE(spans.start(0), 1'573'131'432'955'376'000LL);
    QCOMPARE(spans.duration(0), 2'977'000LL);
}

void tst_JaegerLoader::genAiTraceCategoriesAndUsage()
{
    const LoadResult result = TraceFileLoader::load(realdata(QStringLiteral("jaeger-ui/genaiTestTrace.json")), {});
    QVERIFY(result.ok());
    const SpanTable &spans = result.store->spans;
    int counts[kSpanCategoryCount] = {};
    for (qsizetype row = 0; row < spans.rowCount(); ++row)
        ++counts[int(spans.category(row))];
    QCOMPARE(counts[int(SpanCategory::Agent)], 2);
    QCOMPARE(counts[int(SpanCategory::ModelCall)], 5);
    QCOMPARE(counts[int(SpanCategory::Tool)], 7);
    QCOMPARE(counts[int(SpanCategory::Retrieval)], 3);
    QCOMPARE(counts[int(SpanCategory::Other)], 40);
    const qsizetype chat = rowOf(spans, "0000000000000005");
    QCOMPARE(spans.operation(chat), QStringLiteral("chat"));
    QCOMPARE(spans.inputTokens(chat), 1840);
    QCOMPARE(spans.outputTokens(chat), 260);
    QCOMPARE(spans.number(*spans.findAttribute(chat, "gen_ai.usage.cache_read.input_tokens")), 920.0);
    const qsizetype failing = rowOf(spans, "0000000000000011");
    QCOMPARE(spans.status(failing), SpanStatus::Error);
    QCOMPARE(spans.service(failing), QStringLiteral("k8s-api"));
    // Four model-a calls and the nested summarizer's one: 4·1840 + 920, 4·260 + 140.
    QCOMPARE(result.store->requests.promptTokens(0), 8280);
    QCOMPARE(result.store->requests.outputTokens(0), 1180);
    QCOMPARE(result.store->requests.attribute(QStringLiteral("status"))->text(0), QStringLiteral("error"));
    QCOMPARE(result.store->requests.attribute(QStringLiteral("model_calls"))->number(0), 5.0);
    QCOMPARE(result.store->requests.attribute(QStringLiteral("tool_calls"))->number(0), 7.0);
    QCOMPARE(result.store->requests.attribute(QStringLiteral("workflow_type"))->text(0),
             QStringLiteral("POST /api/graphql"));
}

void tst_JaegerLoader::criticalPathCasesLoad_data()
{
    QTest::addColumn<QJsonObject>("trace");
    QTest::addColumn<int>("spans");
    QFile file(realdata(QStringLiteral("jaeger-ui/criticalpath-testCases.extracted.json")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).array();
    QCOMPARE(cases.size(), 9);
    for (const auto &value : cases) {
        const QJsonObject testCase = value.toObject();
        const QJsonObject trace = testCase.value(QStringLiteral("trace")).toObject();
        QTest::newRow(qPrintable(testCase.value(QStringLiteral("name")).toString()))
            << trace << int(trace.value(QStringLiteral("spans")).toArray().size());
    }
}

void tst_JaegerLoader::criticalPathCasesLoad()
{
    // Jaeger's critical-path fixtures use abstract µs from 0 and ids such as
    // "span-A": both must load as they are (the critical path is tested on them).
    QFETCH(QJsonObject, trace);
    QFETCH(int, spans);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("case.json"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(trace).toJson());
    out.close();
    const LoadResult result = TraceFileLoader::load(path, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(rejectedText(*result.store), QStringList());
    QCOMPARE(result.store->spans.rowCount(), spans);
    QCOMPARE(result.store->workflows.rowCount(), 1);
    QVERIFY(result.store->workflows.rootSpan[0] >= 0);
    QCOMPARE(countFlag(result.store->spans, SpanTable::Orphan), 0);
    const QJsonArray list = trace.value(QStringLiteral("spans")).toArray();
    const SpanTable &table = result.store->spans;
    for (qsizetype row = 0; row < table.rowCount(); ++row) {
        const QJsonObject span = list[row].toObject();
        QCOMPARE(table.spanIdText(row), span.value(QStringLiteral("spanID")).toString());
        QCOMPARE(table.start(row), qint64(span.value(QStringLiteral("startTime")).toDouble()) * 1000);
        QCOMPARE(table.duration(row), qint64(span.value(QStringLiteral("duration")).toDouble()) * 1000);
        const QJsonArray references = span.value(QStringLiteral("references")).toArray();
        if (references.isEmpty()) {
            QCOMPARE(table.parent(row), -1);
            continue;
        }
        const QJsonObject reference = references[0].toObject();
        const qint32 parent = table.parent(row);
        QVERIFY(parent >= 0);
        QCOMPARE(table.spanIdText(parent), reference.value(QStringLiteral("spanID")).toString());
        if (reference.value(QStringLiteral("refType")).toString() == QStringLiteral("FOLLOWS_FROM")) {
            const auto &edges = table.edges();
            QVERIFY(std::any_of(edges.begin(), edges.end(), [&](const SpanTable::Edge &edge) {
                return edge.from == parent && edge.to == row && edge.kind == SpanTable::EdgeKind::FollowsFrom;
            }));
        }
    }
}

void tst_JaegerLoader::malformedInputs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("loaded");
    QTest::addColumn<QStringList>("rejected");
    const QString trace = QStringLiteral("trace 4a1b2c3d4e5f60718293a4b5c6d7e8f9");
    QTest::newRow("negative duration")
        << QStringLiteral("jaeger-negative-duration.json") << 1
        << QStringList{QStringLiteral("jaeger-negative-duration.json: %1: span 0000000000000002: field "
                                      "'spans[1].duration': negative duration -5 µs")
                           .arg(trace)};
    QTest::newRow("truncated") << QStringLiteral("jaeger-truncated.json") << 1
                               << QStringList{QStringLiteral(
                                      "jaeger-truncated.json:39: the document ends early (truncated JSON): syntax "
                                      "error while parsing object key - unexpected end of input; expected string "
                                      "literal; the span before it was kept")};
    const QString prefix = QStringLiteral("jaeger-wrong-types.json: %1: ").arg(trace);
    const QString cycle = QStringLiteral("field 'references': parent cycle 0000000000000009 → 000000000000000a → "
                                         "0000000000000009; every span on it is rejected");
    QTest::newRow("wrong types, self parent, cycle")
        << QStringLiteral("jaeger-wrong-types.json") << 2
        << QStringList{
               prefix
                   + QStringLiteral("span 0000000000000002: field 'spans[1].startTime': must be a number of "
                                    "microseconds, got string"),
               prefix + QStringLiteral("span (no id): field 'spans[2].spanID': missing"),
               prefix + QStringLiteral("span 42: field 'spans[3].spanID': must be a non-empty string, got number"),
               prefix + QStringLiteral("span 0000000000000005: field 'spans[4].duration': missing"),
               prefix
                   + QStringLiteral("span 0000000000000006: field 'spans[5].startTime': 99999999999999999 µs does "
                                    "not fit in 64-bit nanoseconds (after the year 2262)"),
               prefix + QStringLiteral("span (no id): field 'spans[6]': a span must be a JSON object, got string"),
               prefix
                   + QStringLiteral("span 0000000000000008: field 'references': the span names itself as its parent"),
               prefix + QStringLiteral("span 0000000000000009: ") + cycle,
               prefix + QStringLiteral("span 000000000000000a: ") + cycle,
           };
}

void tst_JaegerLoader::malformedInputs()
{
    QFETCH(QString, file);
    QFETCH(int, loaded);
    QFETCH(QStringList, rejected);
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/spans/") + file), {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(rejectedText(*result.store), rejected);
    QCOMPARE(result.store->spans.rowCount(), loaded);
}

QTEST_GUILESS_MAIN(tst_JaegerLoader)
#include "tst_jaegerloader.moc"
