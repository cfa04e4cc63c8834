// The inputs users really have (issue 10): a format detected from its first
// record however far down it is, seed records as one JSON array, trailing
// data after a document, documents of the wrong shape, mixed formats in one
// file, gzip (whole and cut short) and other compressions, named pipes and
// standard input.

#include "support/HostileInput.h"

#include "analysis/requests/Metric.h"
#include "io/AnyAgentLoader.h"
#include "io/JaegerJsonLoader.h"
#include "io/LangfuseLoader.h"
#include "io/LoadControl.h"
#include "io/OtlpJsonLoader.h"
#include "io/TraceFileLoader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <thread>

using namespace HostileInput;

class tst_InputFiles : public QObject
{
    Q_OBJECT
private slots:
    void detectionReadsTheFirstRecord();
    void seedRecordsAsJsonArray();
    void trailingDataAfterADocument();
    void otlpDocumentWithTrailingData();
    void documentOfTheWrongShapeNamesItsLine_data();
    void documentOfTheWrongShapeNamesItsLine();
    void mixedFormatsKeepWhatTheyCan();
    void gzipOpensTransparently();
    void otherCompressionsSaySo();
    void namedPipeReadsAsAStream();
    void pipeWithoutWriterCanBeCancelled();
    void standardInputReadsAsAStream();
};

void tst_InputFiles::detectionReadsTheFirstRecord()
{
    QCOMPARE(TraceFileLoader::detect(regression(QStringLiteral("seed-64KiB-blank-prefix.jsonl"))),
             TraceFormat::SeedJsonl);
    QCOMPARE(TraceFileLoader::detect(regression(QStringLiteral("langfuse-long-input-first.json"))),
             TraceFormat::Langfuse);
    QCOMPARE(TraceFileLoader::detect(regression(QStringLiteral("mixed.jsonl"))), TraceFormat::SeedJsonl);
    // A failed AIPerf request first says nothing of its format; the next does.
    QCOMPARE(TraceFileLoader::detect(regression(QStringLiteral("aiperf-error-types.jsonl"))), TraceFormat::AiperfJsonl);
    const LoadResult seed = load(regression(QStringLiteral("seed-64KiB-blank-prefix.jsonl")));
    QCOMPARE(seed.store->requests.rowCount(), 1);
    QCOMPARE(seed.store->requests.sourceLine(0), 65537);
}

void tst_InputFiles::seedRecordsAsJsonArray()
{
    QFile lines(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/burst.jsonl"));
    QVERIFY(lines.open(QIODevice::ReadOnly));
    QList<QByteArray> records = lines.readAll().trimmed().split('\n');
    const int count = int(records.size());
    records[3] = "{\"request_id\": \"broken\"}";
    QTemporaryDir dir;
    const QString oneLine = dir.filePath(QStringLiteral("one-line.json"));
    writeFile(oneLine, "[" + records.join(", ") + "]");
    const QString pretty = dir.filePath(QStringLiteral("pretty.json"));
    writeFile(pretty, "[\n  " + records.join(",\n  ") + "\n]\n");
    for (const QString &path : {oneLine, pretty}) {
        QCOMPARE(TraceFileLoader::detect(path), TraceFormat::SeedJsonArray);
        const LoadResult result = load(path);
        QVERIFY2(result.ok(), qPrintable(result.fatalError));
        QCOMPARE(result.store->requests.rowCount(), count - 1);
        QCOMPARE(result.store->rejected.size(), size_t(1));
        QCOMPARE(result.store->rejected.front().line, path == oneLine ? 1 : 5);
        QVERIFY(result.store->rejected.front().reason.startsWith(QLatin1String("missing fields: prompt_tokens")));
        QVERIFY(hasNotice(*result.store, QStringLiteral("one JSON array")));
        // The same numbers as the JSON Lines file.
        const auto ttft = metricColumnMs(result.store->requests, Metric::Ttft, Boundary::Client);
        QCOMPARE(ttft.size(), size_t(count - 1));
    }
}

void tst_InputFiles::trailingDataAfterADocument()
{
    const LoadResult result = load(regression(QStringLiteral("two-docs.json")));
    QVERIFY(result.ok());
    QCOMPARE(result.store->spans.rowCount(), 2);
    const RejectedRecord &rejected = result.store->rejected.front();
    QCOMPARE(rejected.line, 99);
    QVERIFY(rejected.reason.startsWith(QLatin1String("trailing data after the end of the JSON document")));
    QVERIFY(!rejected.reason.contains(QLatin1String("truncated")));
}

void tst_InputFiles::otlpDocumentWithTrailingData()
{
    // A pretty-printed OTLP document, then a second one: the first is read,
    // the rest named as trailing data at its line, not "truncated".
    const QByteArray document
        = "{\n  \"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [\n"
          "    {\"traceId\": \"0af7651916cd43dd8448eb211c80319c\", \"spanId\": \"b7ad6b7169203331\",\n"
          "     \"name\": \"chat\", \"startTimeUnixNano\": \"1700000000000000000\",\n"
          "     \"endTimeUnixNano\": \"1700000000900000000\"}\n"
          "  ]}]}]\n}\n";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two.otlp.json"));
    writeFile(path, document + document);
    LoadOptions options;
    const LoadResult result = OtlpJsonLoader::load(path, options, nullptr);
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(result.store->spans.rowCount(), 1);
    QCOMPARE(result.store->rejected.size(), size_t(1));
    const RejectedRecord &rejected = result.store->rejected.front();
    QCOMPARE(rejected.line, 8); // where the second document starts
    QVERIFY2(rejected.reason.startsWith(QLatin1String("trailing data after the end of the JSON document (two "
                                                      "documents in one file?)")),
             qPrintable(rejected.reason));
    QVERIFY(!rejected.reason.contains(QLatin1String("truncated")));
}

void tst_InputFiles::documentOfTheWrongShapeNamesItsLine_data()
{
    QTest::addColumn<QString>("loader");
    QTest::addColumn<QString>("reason");
    QTest::newRow("jaeger") << "jaeger"
                            << "not a Jaeger trace: expected {\"data\": [...]} or a trace with spans";
    QTest::newRow("any-agent") << "any-agent"
                               << "not an any-agent trace: expected {\"spans\": [...]} or a list of spans";
    QTest::newRow("langfuse") << "langfuse"
                              << "not a Langfuse export: expected {\"trace\", \"observations\"}";
}

void tst_InputFiles::documentOfTheWrongShapeNamesItsLine()
{
    // Blank lines, then a document of some other shape: the rejection names
    // line 3, where the document starts (it said line 0).
    QFETCH(QString, loader);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("other.json"));
    writeFile(path, "\n\n\"just a string\"\n");
    LoadOptions options;
    const LoadResult result = loader == QLatin1String("jaeger") ? JaegerJsonLoader::load(path, options, nullptr)
        : loader == QLatin1String("any-agent")                  ? AnyAgentLoader::load(path, options, nullptr)
                                                                : LangfuseLoader::load(path, options, nullptr);
    QCOMPARE(result.store->rejected.size(), size_t(1));
    QCOMPARE(result.store->rejected.front().line, 3);
    QCOMPARE(result.store->rejected.front().reason, reason);
}

void tst_InputFiles::mixedFormatsKeepWhatTheyCan()
{
    const LoadResult result = load(regression(QStringLiteral("mixed.jsonl")));
    QVERIFY(result.ok());
    const TraceStore &store = *result.store;
    QCOMPARE(store.requests.rowCount(), 20);
    QCOMPARE(store.rejected.size(), size_t(13));
    QCOMPARE(store.rejected[3].reason,
             QStringLiteral("written as Mooncake JSONL, not seed JSONL: the file mixes formats, and only seed JSONL "
                            "records are read"));
    QCOMPARE(store.rejected[8].line, 29);
    QVERIFY(store.rejected[8].reason.startsWith(QLatin1String("written as AIPerf JSONL")));
}

void tst_InputFiles::gzipOpensTransparently()
{
    const LoadResult packed = load(regression(QStringLiteral("seed.jsonl.gz")));
    QVERIFY2(packed.ok(), qPrintable(packed.fatalError));
    QCOMPARE(packed.store->requests.rowCount(), 50);
    QCOMPARE(packed.store->sourceFiles, QStringList{regression(QStringLiteral("seed.jsonl.gz"))});
    // Cut short: the complete records load and the notice says where it ends.
    QFile file(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/multiclass.jsonl"));
    QProcess gzip;
    gzip.start(QStringLiteral("gzip"), {QStringLiteral("-c"), file.fileName()});
    QVERIFY(gzip.waitForFinished());
    const QByteArray gz = gzip.readAllStandardOutput();
    QTemporaryDir dir;
    const QString cut = dir.filePath(QStringLiteral("multiclass.jsonl.gz"));
    writeFile(cut, gz.left(5000));
    const LoadResult partial = load(cut);
    QVERIFY2(partial.ok(), qPrintable(partial.fatalError));
    QCOMPARE(partial.store->requests.rowCount(), 82);
    QCOMPARE(partial.store->rejected.front().file, QStringLiteral("multiclass.jsonl"));
    QVERIFY(partial.store->rejected.front().reason.contains(QLatin1String("truncated last line")));
    QVERIFY(hasNotice(*partial.store, QStringLiteral("cut short")));
    // Not gzip inside: a clear error.
    const QString bad = dir.filePath(QStringLiteral("bad.gz"));
    writeFile(bad, QByteArray("\x1F\x8B") + QByteArray(30, 'x'));
    const LoadResult broken = load(bad);
    QVERIFY(broken.fatalError.startsWith(bad + QStringLiteral(": is not a readable gzip file")));
}

void tst_InputFiles::otherCompressionsSaySo()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("trace.jsonl.zst"));
    writeFile(path, QByteArray("\x28\xB5\x2F\xFD") + QByteArray(20, '\0'));
    QCOMPARE(load(path).fatalError,
             path
                 + QStringLiteral(": is zstd-compressed, which this build does not read; decompress it first "
                                  "(unzstd)"));
}

void tst_InputFiles::namedPipeReadsAsAStream()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("trace.pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QFile source(QStringLiteral(TRACELANE_TEST_DATA_DIR "/seed/burst.jsonl"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QByteArray bytes = source.readAll();
    std::thread writer([&] {
        QFile pipe(fifo);
        if (pipe.open(QIODevice::WriteOnly))
            pipe.write(bytes);
    });
    const LoadResult result = load(fifo);
    writer.join();
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(result.store->requests.rowCount(), qsizetype(bytes.count('\n')));
    QCOMPARE(result.store->sourceFiles, QStringList{fifo});
    QVERIFY(hasNotice(*result.store, QStringLiteral("read as a stream from a pipe")));
}

void tst_InputFiles::pipeWithoutWriterCanBeCancelled()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("silent.pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    LoadControl control;
    QElapsedTimer clock;
    clock.start();
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        control.cancel();
    });
    const LoadResult result = TraceFileLoader::load(fifo, {}, &control);
    canceller.join();
    QVERIFY(result.cancelled);
    QVERIFY(result.fatalError.isEmpty());
    QVERIFY(clock.elapsed() < 5000);
}

void tst_InputFiles::standardInputReadsAsAStream()
{
    QProcess cli;
    cli.setStandardInputFile(regression(QStringLiteral("seed.jsonl.gz")));
    cli.start(QStringLiteral(TRACELANE_CLI_PATH),
              {QStringLiteral("analyse"), QStringLiteral("--json"), QStringLiteral("-")});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    const auto document = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
    QCOMPARE(document["file"].get<std::string>(), std::string("-"));
    QCOMPARE(document["rejected_records"].size(), size_t(0));
    QCOMPARE(document["notices"][0]["message"].get<std::string>(),
             std::string("decompressed from gzip (3.4 kB to 20.5 kB)"));
}

QTEST_GUILESS_MAIN(tst_InputFiles)
#include "tst_inputfiles.moc"
