#include "analysis/workflows/WhatIfEdit.h"
#include "io/TraceFileLoader.h"
#include "review/RecordDraft.h"
#include "review/SessionJson.h"
#include "review/SessionReport.h"
#include "store/TraceStore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

// The session document: every piece survives a save and a read, trace
// paths are relative on disk and absolute in memory, what-ifs use the
// command line's syntax, a newer version is refused.
class tst_Session : public QObject
{
    Q_OBJECT
private slots:
    void roundTripEveryPiece();
    void pathsRelativeToTheSessionFile();
    void whatIfCommands_data();
    void whatIfCommands();
    void refusesNewerAndBroken_data();
    void refusesNewerAndBroken();
    void recognisedByContent();
    void fingerprintOfAFile();
    void reportOptionsFromASession();
};

namespace {

Session fullSession(const QString &folder)
{
    Session session;
    session.traces = {{QDir(folder).filePath(QStringLiteral("traces/run 1.jsonl")),
                       {2'048, QStringLiteral("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")}}};
    session.boundary = Boundary::Server;
    session.metric = Metric::E2e;
    session.alignedTime = true;
    session.timeBegin = 1'700'000'000'123'456'789LL;
    session.timeEnd = 1'700'000'009'000'000'001LL;
    session.laneFirst = 12.5;
    session.laneCount = 250.0;
    session.laneOrder = QStringLiteral("metric:ttft");
    session.laneDescending = true;
    session.laneGroupBy = QStringLiteral("region");
    session.hasSlice = true;
    session.sliceLabel = QStringLiteral("region = eu-west");
    session.filterText = QStringLiteral("req-00");
    session.filterAttribute = QStringLiteral("region");
    session.filterValue = QStringLiteral("eu-west");
    session.sliceRequests = {QStringLiteral("req-1"), QStringLiteral("req-\"2\"")};
    session.selection = {QStringLiteral("req-1")};
    session.currentRequest = QStringLiteral("req-1");
    session.classDimensions = {QStringLiteral("region"), QStringLiteral("prompt_band")};
    session.promptBands = QStringLiteral("256, 1024");
    session.outputBands = QStringLiteral("64");
    session.exceedanceQ = 0.99;
    session.exceedanceOrder = QStringLiteral("arrival");
    session.exceedanceMember = QStringLiteral("req-7");
    session.candidate = {QDir(folder).filePath(QStringLiteral("traces/run 2.jsonl")), {}};
    session.compareClasses = {QStringLiteral("region"), QStringLiteral("priority")};
    session.compareQ = 0.99;
    session.compareSloMs = 450.0;
    session.hasComparePrediction = true;
    session.comparePredictedMs = 305.25;
    session.workflow = QStringLiteral("4d7f2c6a9b1e4f0a8c3d5e6f7a8b9c0d");
    session.whatIfs = {QStringLiteral("scale-phase chat@1:prefill=0.75")};
    session.whatIfPopulation = true;
    session.whatIfPopulationQ = 0.99;
    session.windowState = QByteArray("\x00\x01\xff layout", 10);
    session.windowGeometry = QByteArray("geometry");
    session.notes = {{QStringLiteral("req-1"), QString(), QStringLiteral("queued behind <long> prompts")},
                     {QStringLiteral("4d7f"), QStringLiteral("00f067aa0ba902b7"), QStringLiteral("tool waits")}};
    session.hasRecord = true;
    session.record.title = QStringLiteral("Review");
    session.record.objectives = RecordDraft::defaultObjectives();
    session.record.stopRule.guardrails = RecordDraft::defaultGuardrails();
    return session;
}

} // namespace

void tst_Session::roundTripEveryPiece()
{
    QTemporaryDir dir;
    const Session session = fullSession(dir.path());
    const QByteArray bytes = SessionJson::write(session, dir.path());
    Session back;
    QString error;
    QVERIFY2(SessionJson::read(bytes, dir.path(), &back, &error), qPrintable(error));
    QVERIFY(back.traces == session.traces);
    QCOMPARE(back.traces.front().fingerprint.bytes, 2'048);
    QVERIFY(back.candidate == session.candidate);
    QVERIFY(!back.candidate.fingerprint.isKnown());
    QCOMPARE(back.boundary, session.boundary);
    QCOMPARE(back.metric, session.metric);
    QCOMPARE(back.alignedTime, true);
    QCOMPARE(back.timeBegin, session.timeBegin);
    QCOMPARE(back.timeEnd, session.timeEnd);
    QCOMPARE(back.laneFirst, 12.5);
    QCOMPARE(back.laneOrder, session.laneOrder);
    QCOMPARE(back.sliceRequests, session.sliceRequests);
    QCOMPARE(back.filterValue, session.filterValue);
    QCOMPARE(back.classDimensions, session.classDimensions);
    QCOMPARE(back.exceedanceQ, 0.99);
    QCOMPARE(back.compareClasses, session.compareClasses);
    QCOMPARE(back.compareQ, 0.99);
    QCOMPARE(back.compareSloMs, 450.0);
    QCOMPARE(back.hasComparePrediction, true);
    QCOMPARE(back.comparePredictedMs, 305.25);
    QCOMPARE(back.whatIfs, session.whatIfs);
    QCOMPARE(back.whatIfPopulation, true);
    QCOMPARE(back.whatIfPopulationQ, 0.99);
    QCOMPARE(back.windowState, session.windowState);
    QCOMPARE(back.notes, session.notes);
    QCOMPARE(back.record, session.record);
    QVERIFY(back == session);
    QCOMPARE(SessionJson::write(back, dir.path()), bytes);
}

void tst_Session::pathsRelativeToTheSessionFile()
{
    QTemporaryDir dir;
    const Session session = fullSession(dir.path());
    const QByteArray bytes = SessionJson::write(session, dir.path());
    QVERIFY2(bytes.contains("\"path\": \"traces/run 1.jsonl\""), bytes.constData());
    // The folder moved: the trace is found beside the session's new place.
    QTemporaryDir moved;
    Session back;
    QString error;
    QVERIFY(SessionJson::read(bytes, moved.path(), &back, &error));
    QCOMPARE(back.traces.size(), size_t(1));
    QCOMPARE(back.traces.front().path, QDir(moved.path()).filePath(QStringLiteral("traces/run 1.jsonl")));
    QCOMPARE(back.candidate.path, QDir(moved.path()).filePath(QStringLiteral("traces/run 2.jsonl")));
    // A trace outside the folder is written with "..".
    Session outside;
    outside.traces = {{QDir(dir.path()).filePath(QStringLiteral("a/b.jsonl")), {}}};
    QVERIFY(SessionJson::write(outside, QDir(dir.path()).filePath(QStringLiteral("sessions")))
                .contains("\"path\": \"../a/b.jsonl\""));
    // A trace opened from ClickHouse is its URL, wherever the session is.
    const QString url = QStringLiteral("clickhouse://db.example:8123/otel?table=otel_traces&from=1&to=2");
    Session remote;
    remote.traces = {{url, {}}};
    const QByteArray remoteBytes = SessionJson::write(remote, dir.path());
    QVERIFY2(remoteBytes.contains(QByteArray("\"path\": \"" + url.toUtf8() + "\"")), remoteBytes.constData());
    Session remoteBack;
    QVERIFY(SessionJson::read(remoteBytes, moved.path(), &remoteBack, &error));
    QCOMPARE(remoteBack.traces.front().path, url);
}

void tst_Session::whatIfCommands_data()
{
    QTest::addColumn<QString>("command");
    QTest::newRow("scale") << QStringLiteral("scale tool=0.666666666667");
    QTest::newRow("scale-phase") << QStringLiteral("scale-phase chat@1:prefill=0.75");
    QTest::newRow("phase of all") << QStringLiteral("scale-phase queue=0.5");
    QTest::newRow("shorten") << QStringLiteral("shorten-answer 30@24");
    QTest::newRow("dependency") << QStringLiteral("add-dependency policy retrieval>account retrieval");
}

void tst_Session::whatIfCommands()
{
    QFETCH(QString, command);
    WhatIfEdit edit;
    QString error;
    QVERIFY2(SessionWhatIf::fromCommand(command, &edit, &error), qPrintable(error));
    QCOMPARE(SessionWhatIf::toCommand(edit), command);
    QVERIFY(!SessionWhatIf::fromCommand(QStringLiteral("double tool"), &edit, &error));
    QCOMPARE(
        error,
        QStringLiteral("'double tool': a what-if starts with scale, scale-phase, shorten-answer or add-dependency"));
}

void tst_Session::refusesNewerAndBroken_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("newer") << QByteArray(R"({"format":"tracelane.session","version":3})")
                           << QStringLiteral("this session was written by a newer Tracelane (session version 3); this "
                                             "build reads versions up to 1. Open it with a newer Tracelane.");
    QTest::newRow("a record") << QByteArray(R"({"format":"tracelane.diagnosis-record","version":1})")
                              << QStringLiteral("not a Tracelane session: \"format\" must be \"tracelane.session\"");
    QTest::newRow("trace without path") << QByteArray(R"({"format":"tracelane.session","version":1,"traces":[{}]})")
                                        << QStringLiteral("traces[0]: a trace needs a \"path\"");
    QTest::newRow("bytes without hash")
        << QByteArray(R"({"format":"tracelane.session","version":1,"traces":[{"path":"a.jsonl","bytes":12}]})")
        << QStringLiteral("traces[0]: \"bytes\" (0 or more) and \"sha256\" come together");
    QTest::newRow("short hash") << QByteArray(
        R"({"format":"tracelane.session","version":1,"traces":[{"path":"a.jsonl","bytes":12,"sha256":"abc"}]})")
                                << QStringLiteral("traces[0].sha256: expected 64 lowercase hex digits");
    QTest::newRow("candidate path") << QByteArray(
        R"({"format":"tracelane.session","version":1,"compare":{"candidate":"b.jsonl"}})")
                                    << QStringLiteral("compare.candidate: expected an object, got a string");
    QTest::newRow("compare percentile")
        << QByteArray(R"({"format":"tracelane.session","version":1,"compare":{"percentile":95}})")
        << QStringLiteral("compare.percentile: a percentile is a fraction between 0 and 1, got 95");
    QTest::newRow("compare slo") << QByteArray(R"({"format":"tracelane.session","version":1,"compare":{"slo_ms":-1}})")
                                 << QStringLiteral(
                                        "compare.slo_ms: an SLO is 0 (none) or a positive number of ms, got -1");
    QTest::newRow("window") << QByteArray(
        R"({"format":"tracelane.session","version":1,"view":{"time_window_ns":[1.5,2]}})")
                            << QStringLiteral("view.time_window_ns: expected [begin, end] in whole ns");
    QTest::newRow("note") << QByteArray(R"({"format":"tracelane.session","version":1,"notes":[{"text":"x"}]})")
                          << QStringLiteral("notes[0]: a note needs the \"request\" it is on");
    QTest::newRow("record inside") << QByteArray(
        R"({"format":"tracelane.session","version":1,"record":{"format":"tracelane.diagnosis-record","version":9}})")
                                   << QStringLiteral("record: this diagnosis record was written by a newer Tracelane "
                                                     "(diagnosis record version 9); this build reads versions up to 1. "
                                                     "Open it with a newer Tracelane.");
}

void tst_Session::refusesNewerAndBroken()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    Session session;
    QString message;
    QVERIFY(!SessionJson::read(json, QStringLiteral("/tmp"), &session, &message));
    QCOMPARE(message, error);
}

void tst_Session::recognisedByContent()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("named-anything.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(SessionJson::write(fullSession(dir.path()), dir.path()));
    file.close();
    QVERIFY(SessionJson::isSession(path));
    QVERIFY(!SessionJson::isSession(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/adviser.otlp.json")));
    QVERIFY(!SessionJson::isSession(dir.filePath(QStringLiteral("missing.tracelane"))));
}

void tst_Session::fingerprintOfAFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("t.jsonl"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("test");
    file.close();
    // sha256("test"), as `sha256sum` prints it.
    const TraceFingerprint fingerprint = TraceFingerprint::of(path);
    QCOMPARE(fingerprint.bytes, 4);
    QCOMPARE(fingerprint.sha256, QStringLiteral("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"));
    QVERIFY(fingerprint.isKnown());
    QVERIFY(!TraceFingerprint::of(dir.filePath(QStringLiteral("missing.jsonl"))).isKnown());
    const std::atomic<bool> cancelled{true};
    QVERIFY(!TraceFingerprint::of(path, &cancelled).isKnown());
}

// What `tracelane-cli report SESSION` reports: the session's slice (by
// filter or by ids), classes, bands, workflow and what-ifs; what no longer
// matches is listed, not guessed.
void tst_Session::reportOptionsFromASession()
{
    LoadResult load
        = TraceFileLoader::load(QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/mixed-classes.jsonl"), {});
    QVERIFY(load.store);
    const TraceStore &store = *load.store;
    Session session;
    session.hasSlice = true;
    session.sliceLabel = QStringLiteral("region = eu-west");
    session.filterAttribute = QStringLiteral("region");
    session.filterValue = QStringLiteral("eu-west");
    session.classDimensions = {QStringLiteral("priority")};
    session.promptBands = QStringLiteral("256, 1k");
    QStringList problems;
    DesignReport::Options options = SessionReport::options(session, store, &problems);
    QCOMPARE(problems, QStringList());
    QCOMPARE(options.rows.size(), size_t(974));
    QCOMPARE(options.slice, session.sliceLabel);
    QCOMPARE(options.classDimensions, session.classDimensions);
    QCOMPARE(options.bands.prompt.edges(), (std::vector<qint32>{256, 1024}));
    QCOMPARE(options.workflow, -1);

    // By ids: two that exist, one that does not.
    session.sliceRequests = {QStringLiteral("req-0000611"), QStringLiteral("req-0000001"), QStringLiteral("gone")};
    session.sliceLabel = QStringLiteral("picked");
    session.whatIfs = {QStringLiteral("scale tool=0.5"), QStringLiteral("double tool")};
    session.workflow = QStringLiteral("4d7f");
    session.outputBands = QStringLiteral("8, 4");
    options = SessionReport::options(session, store, &problems);
    QCOMPARE(options.rows, (std::vector<qint32>{1, 611}));
    QCOMPARE(options.slice, QStringLiteral("picked"));
    QCOMPARE(options.whatIfs.size(), size_t(1));
    QCOMPARE(options.workflow, -1);
    QCOMPARE(problems.size(), 4);
    QCOMPARE(problems[0], QStringLiteral("1 of the slice's 3 requests are not in the trace"));
    QVERIFY2(problems[1].startsWith(QStringLiteral("output bands \u201c8, 4\u201d: ")), qPrintable(problems[1]));
    QCOMPARE(problems[2], QStringLiteral("the workflow 4d7f is not in the trace"));
    QCOMPARE(problems[3],
             QStringLiteral("what-if \u201cdouble tool\u201d: 'double tool': a what-if starts with scale, "
                            "scale-phase, shorten-answer or add-dependency"));

    // A filter that no longer matches: the report covers every request, and says so.
    problems.clear();
    session = {};
    session.hasSlice = true;
    session.sliceLabel = QStringLiteral("region = mars");
    session.filterAttribute = QStringLiteral("region");
    session.filterValue = QStringLiteral("mars");
    options = SessionReport::options(session, store, &problems);
    QVERIFY(options.rows.empty());
    QVERIFY(options.slice.isEmpty());
    QCOMPARE(problems,
             QStringList{QStringLiteral("the slice \u201cregion = mars\u201d matches no request of the trace; "
                                        "the report covers every request")});
}

QTEST_GUILESS_MAIN(tst_Session)
#include "tst_session.moc"
