#include "TraceBuilder.h"
#include "analysis/requests/PhaseAdvice.h"
#include "io/TraceFileLoader.h"
#include "review/ConfigurationManifest.h"
#include "review/ObjectiveEvaluation.h"
#include "review/RecordDraft.h"
#include "review/RecordJson.h"
#include "review/RecordText.h"
#include "review/TraceCoverage.h"
#include "review/WorkloadSummary.h"
#include "scenarios/SeedScenarios.h"

#include <QTest>

#include <cmath>

// The diagnosis record: objectives checked with the percentile's interval,
// the arrival process and request shape summarised from the trace, the
// trace's boundaries and clock caveats, the suspect, and the versioned JSON
// document (round trip, newer versions refused, errors that name the field).
// Expected figures for the bundled example were computed independently (Python,
// exact decimal stamps) from resources/examples/mixed-classes.jsonl.
namespace {

QString example(const char *name)
{
    return QStringLiteral(TRACELANE_SOURCE_DIR "/resources/examples/") + QString::fromUtf8(name);
}

std::shared_ptr<const TraceStore> load(const QString &path)
{
    LoadResult result = TraceFileLoader::load(path, {});
    return result.ok() ? std::move(result.store) : nullptr;
}

} // namespace

class tst_DiagnosisRecord : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void objectiveOnSeedBurst();
    void objectiveWithInterval();
    void objectiveUndecided();
    void arrivalProcessOfExample();
    void arrivalProcessExact();
    void requestShapeOfExample();
    void boundariesAndClockCaveats();
    void manifestFromTraceAndPerson();
    void suspectFromAttribution();
    void suspectFromCriticalPath();
    void measureKeepsWhatAPersonWrote();
    void wording();
    void jsonRoundTrip();
    void jsonRoundTripKeepsUnmeasured();
    void jsonRefusesNewerVersion();
    void jsonErrorsNameTheField_data();
    void jsonErrorsNameTheField();

private:
    std::shared_ptr<const TraceStore> m_mixed;
    std::shared_ptr<const TraceStore> m_adviser;
};

void tst_DiagnosisRecord::initTestCase()
{
    m_mixed = load(example("mixed-classes.jsonl"));
    m_adviser = load(example("adviser.otlp.json"));
    QVERIFY(m_mixed);
    QVERIFY(m_adviser);
    QCOMPARE(m_mixed->requests.rowCount(), 2000);
}

void tst_DiagnosisRecord::objectiveOnSeedBurst()
{
    const LoadResult burst = SeedScenarios::loadJsonl(SeedScenarios::burstJsonl(), QStringLiteral("burst"));
    const ObjectiveCheck check = ObjectiveEvaluation::check(burst.store->requests, Objective{});
    // The seed's acceptance figure; ten requests cannot hold a p95 interval.
    QCOMPARE(check.n, 10);
    QCOMPARE(check.valueMs, 659.5);
    QVERIFY(check.met);
    QCOMPARE(check.marginMs(), 659.5 - 1200.0);
    QVERIFY(!check.decided);
    QVERIFY(std::isnan(check.lowerMs));
    QVERIFY(std::isnan(check.upperMs));
}

void tst_DiagnosisRecord::objectiveWithInterval()
{
    // n = 2,000: the 95% interval of p95 runs from the 1,880th to the 1,920th value.
    const ObjectiveCheck check
        = ObjectiveEvaluation::check(m_mixed->requests, Objective{Metric::Ttft, Boundary::Client, 0.95, 1200.0});
    QCOMPARE(check.n, 2000);
    QCOMPARE(check.valueMs, 747.1355);
    QCOMPARE(check.lowerMs, 710.753);
    QCOMPARE(check.upperMs, 788.35);
    QVERIFY(check.met);
    QVERIFY(check.decided);
    QCOMPARE(check.observedAt, Boundary::Client);

    const ObjectiveCheck itl
        = ObjectiveEvaluation::check(m_mixed->requests, Objective{Metric::Itl, Boundary::Server, 0.95, 20.0});
    QCOMPARE(itl.n, 2000);
    QVERIFY(qAbs(itl.valueMs - 25.62436898761521) < 1e-9);
    QVERIFY(!itl.met);
    QVERIFY(itl.decided);
    // ITL is observed at the client whatever boundary the objective names.
    QCOMPARE(itl.observedAt, Boundary::Client);
}

void tst_DiagnosisRecord::objectiveUndecided()
{
    // The threshold inside the interval: met by the estimate, not decided.
    const ObjectiveCheck check
        = ObjectiveEvaluation::check(m_mixed->requests, Objective{Metric::Ttft, Boundary::Client, 0.95, 760.0});
    QVERIFY(check.met);
    QVERIFY(!check.decided);
    const ObjectiveCheck missed
        = ObjectiveEvaluation::check(m_mixed->requests, Objective{Metric::Ttft, Boundary::Client, 0.95, 740.0});
    QVERIFY(!missed.met);
    QVERIFY(!missed.decided);
    QCOMPARE(missed.marginMs(), 747.1355 - 740.0);
    // On a slice of rows only.
    const std::vector<qint32> rows = {0, 1, 2};
    QCOMPARE(ObjectiveEvaluation::check(m_mixed->requests, rows, Objective{}).n, 3);
}

void tst_DiagnosisRecord::arrivalProcessOfExample()
{
    const ArrivalProcess arrival = WorkloadSummary::arrivals(*m_mixed, {});
    QCOMPARE(arrival.requests, 2000);
    QVERIFY(qAbs(arrival.windowSeconds - 14.808916) < 1e-9);
    QVERIFY(qAbs(arrival.ratePerSecond - 134.98624747415678) < 1e-9);
    QVERIFY(qAbs(arrival.gapCv - 1.0627510197225951) < 1e-9);
    QCOMPARE(arrival.peakPerSecond, 307.0);
    QCOMPARE(arrival.peakInFlight, 569);
    QVERIFY(qAbs(arrival.meanInFlight - 184.88543217088915) < 1e-6);
}

void tst_DiagnosisRecord::arrivalProcessExact()
{
    // Five requests 250 ms apart, 100 ms long: constant gaps (CV 0), four
    // gaps in one second, never two in flight; two at once when they overlap.
    TraceBuilder builder;
    for (int i = 0; i < 5; ++i) {
        TestRequest request;
        request.sendMs = 250.0 * i;
        request.phasesMs = {10, 10, 10, 10, 10, 10, 40};
        builder.add(request);
    }
    const auto store = builder.store();
    const ArrivalProcess arrival = WorkloadSummary::arrivals(*store, {});
    QCOMPARE(arrival.requests, 5);
    QCOMPARE(arrival.windowSeconds, 1.0);
    QCOMPARE(arrival.ratePerSecond, 4.0);
    QCOMPARE(arrival.gapCv, 0.0);
    QCOMPARE(arrival.peakPerSecond, 4.0); // [0, 1 s) holds four arrivals
    QCOMPARE(arrival.peakInFlight, 1);
    QCOMPARE(arrival.meanInFlight, 500.0 / 1100.0);

    TestRequest overlapping;
    overlapping.sendMs = 50.0;
    builder.add(overlapping);
    QCOMPARE(WorkloadSummary::arrivals(*builder.store(), {}).peakInFlight, 2);
    // Rows in scope only.
    const std::vector<qint32> rows = {0, 4};
    const ArrivalProcess two = WorkloadSummary::arrivals(*store, rows);
    QCOMPARE(two.requests, 2);
    QVERIFY(std::isnan(two.gapCv)); // one gap has no spread
    QCOMPARE(two.ratePerSecond, 1.0);
}

void tst_DiagnosisRecord::requestShapeOfExample()
{
    const RequestShape shape = WorkloadSummary::shape(*m_mixed, {});
    QCOMPARE(shape.prompt.n, 2000);
    QCOMPARE(shape.prompt.p50, 439.0);
    QVERIFY(qAbs(shape.prompt.p95 - 5558.75) < 1e-9);
    QCOMPARE(shape.prompt.max, 29833.0);
    QCOMPARE(shape.output.p50, 160.0);
    QVERIFY(qAbs(shape.output.p95 - 530.05) < 1e-9);
    QCOMPARE(shape.output.max, 2466.0);
    QCOMPARE(shape.workflows, 0);
    QCOMPARE(qsizetype(shape.classes.size()), 4);
    const ClassMix &region = shape.classes[0];
    QCOMPARE(region.dimension, QStringLiteral("region"));
    QCOMPARE(qsizetype(region.shares.size()), 3);
    QCOMPARE(region.shares[0].first, QStringLiteral("eu-west"));
    QCOMPARE(region.shares[0].second, 974.0 / 2000.0);
    QCOMPARE(region.shares[2].first, QStringLiteral("ap-south"));
    QCOMPARE(region.shares[2].second, 322.0 / 2000.0);
    QCOMPARE(region.otherValues, 0);

    const RequestShape workflows = WorkloadSummary::shape(*m_adviser, {});
    QCOMPARE(workflows.workflows, 1);
    QCOMPARE(workflows.spansPerWorkflowP50, 10.0);
    QCOMPARE(workflows.spansPerWorkflowMax, 10);
    QCOMPARE(workflows.modelCallsPerWorkflowP50, 2.0);
}

void tst_DiagnosisRecord::boundariesAndClockCaveats()
{
    QByteArray jsonl = SeedScenarios::burstJsonl();
    jsonl += SeedScenarios::negativeControlJsonl();
    const LoadResult result = SeedScenarios::loadJsonl(jsonl, QStringLiteral("burst+negative"));
    QCOMPARE(result.store->rejected.size(), size_t(1));
    const TraceBoundaries boundaries = TraceCoverage::boundaries(*result.store, {}, QStringLiteral("burst+negative"));
    QCOMPARE(boundaries.trace, QStringLiteral("burst+negative"));
    QCOMPARE(boundaries.requests, 10);
    QCOMPARE(boundaries.rejected, 1);
    QCOMPARE(boundaries.observedPhases(),
             QStringList({QStringLiteral("network_in"), QStringLiteral("gateway"), QStringLiteral("queue"),
                          QStringLiteral("prefill"), QStringLiteral("first_decode"), QStringLiteral("network_to_first"),
                          QStringLiteral("stream")}));
    QCOMPARE(qsizetype(boundaries.rejectedReasons.size()), 1);
    QCOMPARE(boundaries.rejectedReasons[0].count, 1);
    QVERIFY2(boundaries.rejectedReasons[0].reason.contains(QStringLiteral("not monotonic")),
             qPrintable(boundaries.rejectedReasons[0].reason));
    // The numbers of one record are taken out so equal defects group.
    QVERIFY(!boundaries.rejectedReasons[0].reason.contains(QStringLiteral("1700")));
    QCOMPARE(boundaries.clockCaveats.size(), 2);
    QVERIFY(boundaries.clockCaveats[0].startsWith(QStringLiteral("1 record(s) rejected for broken clocks")));
    QVERIFY(boundaries.clockCaveats[0].contains(QStringLiteral("burst+negative:")));
    QVERIFY(boundaries.clockCaveats[1].contains(QStringLiteral("different hosts")));

    // A missing stamp leaves its two phases unobserved.
    TraceBuilder builder;
    TestRequest request;
    request.missingStamp = int(Stamp::QueueEnter);
    builder.add(request);
    const TraceBoundaries partial = TraceCoverage::boundaries(*builder.store(), {}, QStringLiteral("t"));
    QCOMPARE(partial.phases[size_t(Phase::Gateway)].second, 0);
    QCOMPARE(partial.phases[size_t(Phase::Queue)].second, 0);
    QCOMPARE(partial.phases[size_t(Phase::Prefill)].second, 1);
    QVERIFY(!partial.observedPhases().contains(QStringLiteral("queue")));

    QVERIFY(TraceCoverage::isClockDefect(QStringLiteral("the span ends 5 ns before it starts")));
    QVERIFY(TraceCoverage::isClockDefect(QStringLiteral("negative time -4 ns")));
    QVERIFY(!TraceCoverage::isClockDefect(QStringLiteral("must be a whole number of tokens, got a string")));
}

void tst_DiagnosisRecord::manifestFromTraceAndPerson()
{
    const std::vector<ManifestEntry> adviser
        = ConfigurationManifest::fromTrace(*m_adviser, QStringLiteral("adviser.otlp.json"));
    QVERIFY(adviser.size() >= 3);
    QCOMPARE(adviser[0], (ManifestEntry{QStringLiteral("trace"), QStringLiteral("adviser.otlp.json"), true}));
    QCOMPARE(adviser[1], (ManifestEntry{QStringLiteral("format"), m_adviser->format, true}));
    const auto find = [&adviser](const QString &key) {
        for (const ManifestEntry &entry : adviser) {
            if (entry.key == key)
                return entry.value;
        }
        return QString();
    };
    QVERIFY2(!find(QStringLiteral("service.name")).isEmpty(), "the example's resource names its service");

    std::vector<ManifestEntry> current = {{QStringLiteral("gpu"), QStringLiteral("8x H100"), false},
                                          {QStringLiteral("format"), QStringLiteral("mine"), false},
                                          {QStringLiteral("old"), QStringLiteral("stale"), true}};
    const std::vector<ManifestEntry> merged = ConfigurationManifest::merged(current, adviser);
    // The stale measured entry is gone, the person's "format" wins, "gpu" stays.
    QVERIFY(std::none_of(merged.begin(), merged.end(),
                         [](const ManifestEntry &e) { return e.key == QStringLiteral("old"); }));
    QCOMPARE(std::count_if(merged.begin(), merged.end(),
                           [](const ManifestEntry &e) { return e.key == QStringLiteral("format"); }),
             1);
    QCOMPARE(merged[merged.size() - 1], current[1]);
    QCOMPARE(merged[merged.size() - 2], current[0]);
}

void tst_DiagnosisRecord::suspectFromAttribution()
{
    const LoadResult burst = SeedScenarios::loadJsonl(SeedScenarios::burstJsonl(), QStringLiteral("burst"));
    const SuspectedPhase suspect = RecordDraft::suspect(*burst.store, {}, Boundary::Client, Metric::Ttft, 0.5);
    QCOMPARE(suspect.source, SuspectedPhase::Source::PhaseAttribution);
    // The burst only grows queue delay: the slow half waits longer in the queue.
    QCOMPARE(suspect.phase, QStringLiteral("queue"));
    QVERIFY2(suspect.evidence.contains(QStringLiteral("100%")), qPrintable(suspect.evidence));
    Coordinates coordinates;
    coordinates.q = 0.5;
    const Experiment experiment = RecordDraft::experimentFor(suspect, coordinates);
    QCOMPARE(experiment.symptom, QStringLiteral("p50 client TTFT tail carried by queue"));
    QCOMPARE(experiment.test, nextTestFor(Phase::Queue));
}

void tst_DiagnosisRecord::suspectFromCriticalPath()
{
    const SuspectedPhase suspect = RecordDraft::suspect(*m_adviser, {}, Boundary::Client, Metric::E2e, 0.95);
    QCOMPARE(suspect.source, SuspectedPhase::Source::CriticalPath);
    // The final answer's 110 tokens stream for 2,640 ms of the 5,986 ms path.
    QVERIFY2(suspect.phase.endsWith(QStringLiteral("\u00b7 stream")), qPrintable(suspect.phase));
    QVERIFY2(suspect.evidence.contains(QStringLiteral("2.64 s")), qPrintable(suspect.evidence));
    QVERIFY2(suspect.evidence.contains(QStringLiteral("44.1%")), qPrintable(suspect.evidence));
    QVERIFY2(suspect.evidence.contains(QStringLiteral("5.99 s")), qPrintable(suspect.evidence));
}

void tst_DiagnosisRecord::measureKeepsWhatAPersonWrote()
{
    RecordDraft::Scope scope;
    scope.trace = QStringLiteral("mixed-classes.jsonl");
    DiagnosisRecord record = RecordDraft::draft(*m_mixed, scope, Boundary::Client, Metric::Ttft, 0.95);
    QCOMPARE(record.title, QStringLiteral("Latency diagnosis: mixed-classes.jsonl"));
    QCOMPARE(qsizetype(record.objectives.size()), 2);
    QCOMPARE(qsizetype(record.checks.size()), 2);
    QCOMPARE(record.checks[0].valueMs, 747.1355);
    QCOMPARE(record.measuredOn, QStringLiteral("mixed-classes.jsonl"));
    QCOMPARE(record.coordinates.arrival.peakInFlight, 569);
    QVERIFY(!record.experiment.test.isEmpty());
    QCOMPARE(record.stopRule.guardrails, RecordDraft::defaultGuardrails());
    QVERIFY(record.stopRule.representativeLoad.startsWith(QStringLiteral("about 135.0 requests/s")));

    record.suspect = {SuspectedPhase::Source::Person, QStringLiteral("prefill"), QStringLiteral("my hunch")};
    record.experiment = {QStringLiteral("s"), QStringLiteral("t")};
    record.configuration.push_back({QStringLiteral("gpu"), QStringLiteral("A100"), false});
    record.boundaries.note = QStringLiteral("client clocks NTP-synced");
    record.objectives.push_back(Objective{Metric::E2e, Boundary::Client, 0.99, 10'000.0});
    const std::vector<qint32> rows = {0, 1, 2, 3};
    RecordDraft::Scope four;
    four.rows = rows;
    four.trace = QStringLiteral("mixed-classes.jsonl");
    four.slice = QStringLiteral("first four");
    RecordDraft::measure(record, *m_mixed, four);
    QCOMPARE(record.measuredOn, QStringLiteral("mixed-classes.jsonl (first four)"));
    QCOMPARE(qsizetype(record.checks.size()), 3);
    QCOMPARE(record.checks[2].n, 4);
    QCOMPARE(record.coordinates.arrival.requests, 4);
    QCOMPARE(record.suspect.phase, QStringLiteral("prefill"));
    QCOMPARE(record.experiment.test, QStringLiteral("t"));
    QCOMPARE(record.boundaries.note, QStringLiteral("client clocks NTP-synced"));
    QCOMPARE(record.boundaries.requests, 4);
    QCOMPARE(record.configuration.back().value, QStringLiteral("A100"));
}

void tst_DiagnosisRecord::wording()
{
    QCOMPARE(RecordText::objective(Objective{}), QStringLiteral("p95 client TTFT < 1,200 ms"));
    // ITL is observed at the client whatever the objective's boundary says.
    QCOMPARE(RecordText::objective(Objective{Metric::Itl, Boundary::Server, 0.99, 80.5}),
             QStringLiteral("p99 client ITL < 80.5 ms/token"));
    const ObjectiveCheck met = ObjectiveEvaluation::check(m_mixed->requests, Objective{});
    QCOMPARE(RecordText::check(met),
             QStringLiteral("met by 452.9 ms: p95 747.1 ms [95% interval 710.8\u2013788.4 ms], n = 2,000"));
    QCOMPARE(RecordText::checkVerdict(met), QStringLiteral("met"));
    const ObjectiveCheck close
        = ObjectiveEvaluation::check(m_mixed->requests, Objective{Metric::Ttft, Boundary::Client, 0.95, 740.0});
    QVERIFY(RecordText::check(close).endsWith(QStringLiteral("the interval straddles the threshold, so this trace "
                                                             "cannot decide it")));
    QCOMPARE(RecordText::checkVerdict(close), QStringLiteral("missed (not decided at 95%)"));
    QCOMPARE(RecordText::arrival(WorkloadSummary::arrivals(*m_mixed, {})),
             QStringLiteral("135.0 requests/s over 14.81 s, gap CV 1.06 (about Poisson), peak 307 arrivals in one "
                            "second, up to 569 in flight (mean 184.9)"));
    const RequestShape shape = WorkloadSummary::shape(*m_mixed, {});
    QCOMPARE(RecordText::tokens(shape),
             QStringLiteral("prompt tokens p50 439 / p95 5,559 / max 29,833; output tokens "
                            "p50 160 / p95 530 / max 2,466"));
    QCOMPARE(RecordText::classMix(shape).first(),
             QStringLiteral("region: eu-west 48.7%, us-east 35.2%, ap-south 16.1%"));
}

void tst_DiagnosisRecord::jsonRoundTrip()
{
    RecordDraft::Scope scope;
    scope.trace = QStringLiteral("mixed-classes.jsonl");
    DiagnosisRecord record = RecordDraft::draft(*m_mixed, scope, Boundary::Server, Metric::Ttft, 0.99);
    record.author = QStringLiteral("Ada");
    record.date = QStringLiteral("2026-12-01");
    record.claim = QStringLiteral("Queue carries the p99 \"tail\" <b>under</b> bursts — ünïcödé");
    record.workloadNote = QStringLiteral("bursty\nmornings");
    record.verdict = {StopVerdict::Outcome::Worked, QStringLiteral("candidate.jsonl"), 812.5, 640.25,
                      QStringLiteral("queue moved by 172 ms")};
    record.stopRule.minimumGainMs = 50.0;
    const QByteArray bytes = RecordJson::write(record);
    QVERIFY(bytes.endsWith('\n'));
    QVERIFY(bytes.contains("\"format\": \"tracelane.diagnosis-record\""));
    QVERIFY(bytes.contains("\"version\": 1"));
    DiagnosisRecord back;
    QString error;
    QVERIFY2(RecordJson::read(bytes, &back, &error), qPrintable(error));
    QCOMPARE(back.title, record.title);
    QCOMPARE(back.claim, record.claim);
    QCOMPARE(back.objectives, record.objectives);
    QCOMPARE(back.checks, record.checks);
    QCOMPARE(back.coordinates.arrival, record.coordinates.arrival);
    QCOMPARE(back.coordinates.shape, record.coordinates.shape);
    QCOMPARE(back.coordinates, record.coordinates);
    QCOMPARE(back.configuration, record.configuration);
    QCOMPARE(back.boundaries, record.boundaries);
    QCOMPARE(back.suspect, record.suspect);
    QCOMPARE(back.experiment, record.experiment);
    QCOMPARE(back.stopRule, record.stopRule);
    QCOMPARE(back.verdict, record.verdict);
    QVERIFY(back == record);
    QCOMPARE(RecordJson::write(back), bytes);
}

void tst_DiagnosisRecord::jsonRoundTripKeepsUnmeasured()
{
    DiagnosisRecord record; // nothing measured: NaN everywhere
    record.objectives = RecordDraft::defaultObjectives();
    record.checks.push_back(ObjectiveCheck{});
    const QByteArray bytes = RecordJson::write(record);
    QVERIFY(bytes.contains("\"value_ms\": null"));
    DiagnosisRecord back;
    QString error;
    QVERIFY2(RecordJson::read(bytes, &back, &error), qPrintable(error));
    QVERIFY(std::isnan(back.checks[0].valueMs));
    QVERIFY(std::isnan(back.coordinates.arrival.gapCv));
    QVERIFY(back == record);
}

void tst_DiagnosisRecord::jsonRefusesNewerVersion()
{
    DiagnosisRecord record;
    QString error;
    QVERIFY(!RecordJson::read(R"({"format":"tracelane.diagnosis-record","version":2,"title":"x"})", &record, &error));
    QCOMPARE(error,
             QStringLiteral("this diagnosis record was written by a newer Tracelane (diagnosis record version 2); "
                            "this build reads versions up to 1. Open it with a newer Tracelane."));
    QVERIFY(!RecordJson::read(R"({"format":"tracelane.session","version":1})", &record, &error));
    QCOMPARE(error,
             QStringLiteral("not a Tracelane diagnosis record: \"format\" must be \"tracelane.diagnosis-record\""));
    // An older (the current) version with unknown extra fields reads.
    QVERIFY(RecordJson::read(R"({"format":"tracelane.diagnosis-record","version":1,"title":"x","later":1})", &record,
                             &error));
    QCOMPARE(record.title, QStringLiteral("x"));
}

void tst_DiagnosisRecord::jsonErrorsNameTheField_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    const QByteArray head = R"({"format":"tracelane.diagnosis-record","version":1,)";
    QTest::newRow("not json") << QByteArray("{\"format\":") << QStringLiteral("not valid JSON (byte 11)");
    QTest::newRow("array") << QByteArray("[]")
                           << QStringLiteral("not a Tracelane diagnosis record: expected a JSON object, got an array");
    QTest::newRow("version text") << QByteArray(R"({"format":"tracelane.diagnosis-record","version":"1"})")
                                  << QStringLiteral("version: expected a whole number from 1");
    QTest::newRow("title number") << head + R"("title":3})" << QStringLiteral("title: expected a string, got a number");
    QTest::newRow("threshold text") << head + R"("objectives":[{},{"threshold_ms":"1.2 s"}]})"
                                    << QStringLiteral("objectives[1].threshold_ms: expected a number, got a string");
    QTest::newRow("metric") << head + R"("objectives":[{"metric":"latency"}]})"
                            << QStringLiteral(
                                   "objectives[0].metric: unknown metric 'latency' (ttft, itl, e2e or a phase)");
    QTest::newRow("percentile") << head + R"("objectives":[{"percentile":95}]})"
                                << QStringLiteral(
                                       "objectives[0].percentile: a percentile is a fraction between 0 and 1, got 95");
    QTest::newRow("share") << head + R"("stop_rule":{"material_share":"20%"}})"
                           << QStringLiteral("stop_rule.material_share: expected a number, got a string");
    QTest::newRow("guardrail") << head + R"("stop_rule":{"guardrails":["a",2]}})"
                               << QStringLiteral("stop_rule.guardrails[1]: expected a string, got a number");
    QTest::newRow("phase") << head + R"("trace_boundaries":{"phases":[{"phase":"decode"}]}})"
                           << QStringLiteral("trace_boundaries.phases[0].phase: unknown phase 'decode'");
    QTest::newRow("class share")
        << head + R"("coordinates":{"request_shape":{"classes":[{"values":[{"share":"x"}]}]}}})"
        << QStringLiteral("coordinates.request_shape.classes[0].values[0].share: expected a number, got a string");
    QTest::newRow("source")
        << head + R"("suspected_phase":{"source":"oracle"}})"
        << QStringLiteral(
               "suspected_phase.source: unknown source 'oracle' (none, phase-attribution, critical-path, person)");
    QTest::newRow("outcome")
        << head + R"("verdict":{"outcome":"stop"}})"
        << QStringLiteral("verdict.outcome: unknown outcome 'stop' (not-judged, worked, did-not-work, inconclusive)");
}

void tst_DiagnosisRecord::jsonErrorsNameTheField()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    DiagnosisRecord record;
    record.title = QStringLiteral("unchanged");
    QString message;
    QVERIFY(!RecordJson::read(json, &record, &message));
    QVERIFY2(message.startsWith(error), qPrintable(message));
    QCOMPARE(record.title, QStringLiteral("unchanged"));
}

QTEST_GUILESS_MAIN(tst_DiagnosisRecord)
#include "tst_diagnosisrecord.moc"
