#include "JaegerCriticalPathCases.h"
#include "SpanGraphSpec.h"

#include "analysis/workflows/WorkflowSchedule.h"

#include <QTest>

class tst_CriticalPath : public QObject
{
    Q_OBJECT
private slots:
    void jaegerCases_data();
    void jaegerCases();
    void paths_data();
    void paths();
    void baselineReplaysClippedTimes();
    void slack_data();
    void slack();
    void contradictedDependencyIsIgnoredWithNotice();
    void malformed_data();
    void malformed();
    void deepParentChain();
    void longDependencyChain();
    void millionSpanWorkflow();
};

namespace {

std::optional<WorkflowSchedule> scheduleOf(const QString &spec, QString *error = nullptr)
{
    QString message;
    auto schedule = WorkflowSchedule::build(SpanGraphSpec::parse(spec), &message);
    if (error)
        *error = message;
    else if (!schedule)
        qWarning("%s", qPrintable(message));
    return schedule;
}

} // namespace

void tst_CriticalPath::jaegerCases_data()
{
    QTest::addColumn<int>("index");
    QString error;
    const auto cases = JaegerCases::load(
        QStringLiteral(TRACELANE_REALDATA_DIR "/jaeger-ui/criticalpath-testCases.extracted.json"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(cases.size(), size_t(9));
    for (size_t i = 0; i < cases.size(); ++i)
        QTest::newRow(qPrintable(cases[i].name)) << int(i);
}

void tst_CriticalPath::jaegerCases()
{
    QFETCH(int, index);
    QString error;
    const auto cases = JaegerCases::load(
        QStringLiteral(TRACELANE_REALDATA_DIR "/jaeger-ui/criticalpath-testCases.extracted.json"), &error);
    const auto &testCase = cases[size_t(index)];
    const auto schedule = WorkflowSchedule::build(testCase.graph, &error);
    QVERIFY2(schedule, qPrintable(error));
    QCOMPARE(SpanGraphSpec::format(*testCase.graph, schedule->criticalPath()),
             SpanGraphSpec::format(*testCase.graph, testCase.expected));
    QVERIFY(schedule->criticalPath() == testCase.expected);
}

void tst_CriticalPath::paths_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("expected");

    // Jaeger's strict comparison drops D here; it gates E, so it is on the path.
    QTest::newRow("touching siblings") << QStringLiteral("C 1 101; D 20 50 C; E 50 60 C")
                                       << QStringLiteral("C 1-20, D 20-50, E 50-60, C 60-101");
    // Jaeger treats a start time of 0 as "no time" and recurses forever.
    QTest::newRow("zero is a real time") << QStringLiteral("C 0 100; D 0 40 C; E 50 60 C")
                                         << QStringLiteral("D 0-40, C 40-50, E 50-60, C 60-100");
    QTest::newRow("parallel branches count once") << QStringLiteral("R 0 100; P 10 60 R; Q 10 40 R; S 60 90 R")
                                                  << QStringLiteral("R 0-10, P 10-60, S 60-90, R 90-100");
    QTest::newRow("explicit dependency across subtrees")
        << QStringLiteral("R 0 100; X 0 60 R; A 10 55 X; Y 20 100 R; B 58 90 Y; A>B")
        << QStringLiteral("X 0-10, A 10-55, Y 55-58, B 58-90, Y 90-100");
    QTest::newRow("dependency that finished early is not binding")
        << QStringLiteral("R 0 100; X 0 40 R; A 10 30 X; Y 40 100 R; B 50 90 Y; A>B")
        << QStringLiteral("X 0-10, A 10-30, X 30-40, Y 40-50, B 50-90, Y 90-100");
    QTest::newRow("idle time between roots")
        << QStringLiteral("A 0 10; B 15 30") << QStringLiteral("A 0-10, - 10-15, B 15-30");
    QTest::newRow("zero-length sibling at a start")
        << QStringLiteral("R 0 10; Z 5 5 R; W 5 8 R") << QStringLiteral("R 0-5, W 5-8, R 8-10");
    QTest::newRow("non-blocking child past the root's end")
        << QStringLiteral("P 0 10; C 5 50 P nb") << QStringLiteral("P 0-10");
    QTest::newRow("child overflowing both ends is clipped")
        << QStringLiteral("A 10 30; B 5 35 A") << QStringLiteral("B 10-30");
    QTest::newRow("grandchild clipped to the clipped child")
        << QStringLiteral("A 0 30; B 10 50 A; C 20 45 B") << QStringLiteral("A 0-10, B 10-20, C 20-30");
    QTest::newRow("child of a dropped child is dropped")
        << QStringLiteral("A 0 30; B 40 80 A; C 20 25 B") << QStringLiteral("A 0-30");
    QTest::newRow("single span") << QStringLiteral("A 7 9") << QStringLiteral("A 7-9");
}

void tst_CriticalPath::paths()
{
    QFETCH(QString, spec);
    QFETCH(QString, expected);
    const auto schedule = scheduleOf(spec);
    QVERIFY(schedule);
    QCOMPARE(SpanGraphSpec::format(schedule->graph(), schedule->criticalPath()), expected);
    // The path covers the workflow end to end.
    qint64 total = 0;
    for (const auto &section : schedule->criticalPath())
        total += section.duration();
    QCOMPARE(total, schedule->timing().e2e());
}

void tst_CriticalPath::baselineReplaysClippedTimes()
{
    const auto schedule = scheduleOf(QStringLiteral("R 0 100; X 0 60 R; A 10 55 X; Y 20 100 R; B 58 90 Y; "
                                                    "C 5 120 Y; Z 61 61 Y; A>B"));
    QVERIFY(schedule);
    const auto &events = schedule->events();
    QVERIFY(events.schedule(events.baselineDelays()) == events.baselineTimes());
    for (qint32 span = 0; span < schedule->graph().spanCount(); ++span) {
        QCOMPARE(schedule->baselineTimes()[size_t(events.startNode(span))], schedule->clipped().start[size_t(span)]);
        QCOMPARE(schedule->baselineTimes()[size_t(events.endNode(span))], schedule->clipped().end[size_t(span)]);
    }
    QCOMPARE(schedule->clipped().start[5], qint64(20'000)); // C clipped into Y
    QCOMPARE(schedule->clipped().end[5], qint64(100'000));
    QCOMPARE(schedule->graph().start(5), qint64(5'000)); // raw data untouched
    QCOMPARE(schedule->graph().end(5), qint64(120'000));
}

void tst_CriticalPath::slack_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("span");
    QTest::addColumn<qint64>("expected"); // units; -1 = does not gate the end

    const QString parallel = QStringLiteral("R 0 100; P 10 60 R; Q 10 40 R; T 10 30 Q; S 60 90 R");
    QTest::newRow("longest branch") << parallel << QStringLiteral("P") << qint64(0);
    QTest::newRow("shorter branch") << parallel << QStringLiteral("Q") << qint64(20);
    QTest::newRow("inside the shorter branch") << parallel << QStringLiteral("T") << qint64(20);
    QTest::newRow("after the join") << parallel << QStringLiteral("S") << qint64(0);
    QTest::newRow("root") << parallel << QStringLiteral("R") << qint64(0);
    // C waits 5 after the later of A and B: the gap belongs to the join.
    const QString join = QStringLiteral("R 0 100; A 0 30 R; B 0 50 R; C 55 90 R");
    QTest::newRow("join gap: early branch") << join << QStringLiteral("A") << qint64(20);
    QTest::newRow("join gap: late branch") << join << QStringLiteral("B") << qint64(0);
    QTest::newRow("tail of parent") << join << QStringLiteral("C") << qint64(0);
    QTest::newRow("non-blocking child") << QStringLiteral("P 0 10; C 5 8 P nb") << QStringLiteral("C") << qint64(-1);
    // B names its dependency, so C is not inferred to gate it; only the
    // root's own 40 after its last child follows C.
    QTest::newRow("explicit dependency replaces inferred order")
        << QStringLiteral("R 0 100; A 0 30 R; B 40 60 R; C 0 20 R; A>B") << QStringLiteral("C") << qint64(40);
    QTest::newRow("inferred order") << QStringLiteral("R 0 100; A 0 30 R; B 40 60 R; C 0 20 R") << QStringLiteral("C")
                                    << qint64(10);
}

void tst_CriticalPath::slack()
{
    QFETCH(QString, spec);
    QFETCH(QString, span);
    QFETCH(qint64, expected);
    const auto schedule = scheduleOf(spec);
    QVERIFY(schedule);
    qint32 row = -1;
    for (qint32 i = 0; i < schedule->graph().spanCount(); ++i) {
        if (schedule->graph().name(i) == span)
            row = i;
    }
    const qint64 slack = schedule->slack()[size_t(row)];
    QCOMPARE(slack == ScheduleGraph::kUnbounded ? qint64(-1) : slack / 1000, expected);
}

void tst_CriticalPath::contradictedDependencyIsIgnoredWithNotice()
{
    const auto schedule = scheduleOf(QStringLiteral("R 0 100; A 0 50 R; B 40 90 R; A>B"));
    QVERIFY(schedule);
    QCOMPARE(schedule->notices().size(), 1);
    QCOMPARE(schedule->notices().front(),
             QStringLiteral("dependency 'A' (#1) → 'B' (#2) contradicts the recorded times: the second starts "
                            "10000 ns before the first ends; ignored"));
    QCOMPARE(SpanGraphSpec::format(schedule->graph(), schedule->criticalPath()),
             QStringLiteral("R 0-40, B 40-90, R 90-100"));
}

void tst_CriticalPath::malformed_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("error");

    QTest::newRow("self parent") << QStringLiteral("R 0 10; A 0 10 A")
                                 << QStringLiteral("span 'A' (#1) is its own parent");
    QTest::newRow("parent cycle") << QStringLiteral("R 0 10; A 0 5 B; B 0 5 C; C 0 5 A")
                                  << QStringLiteral("parent cycle: 'A' (#1) → 'B' (#2) → 'C' (#3) → 'A' (#1)");
    QTest::newRow("parent outside the workflow")
        << QStringLiteral("R 0 10; A 0 5 nowhere")
        << QStringLiteral("span 'A' (#1) has parent index -9 outside the workflow (2 spans)");
    QTest::newRow("end before start") << QStringLiteral("R 0 10; A 8 5 R")
                                      << QStringLiteral("span 'A' (#1) ends 3000 ns before it starts");
    QTest::newRow("dependency cycle") << QStringLiteral("R 0 10; A 5 5 R; B 5 5 R; A>B; B>A")
                                      << QStringLiteral("dependency cycle through spans 'A' (#1), 'B' (#2)");
    QTest::newRow("no spans") << QString() << QStringLiteral("the workflow has no spans");
}

void tst_CriticalPath::malformed()
{
    QFETCH(QString, spec);
    QFETCH(QString, error);
    QString message;
    const auto schedule = scheduleOf(spec, &message);
    QVERIFY(!schedule);
    QCOMPARE(message, error);
}

void tst_CriticalPath::deepParentChain()
{
    // Span i runs [i, 2N - i] under span i - 1: a 100,000-deep nest.
    constexpr qint32 depth = 100'000;
    auto graph = std::make_shared<SpanGraph>();
    for (qint32 i = 0; i < depth; ++i) {
        SpanGraph::Span span;
        span.parent = i - 1;
        span.start = i;
        span.end = 2 * depth - i;
        graph->appendSpan(span);
    }
    QString error;
    const auto schedule = WorkflowSchedule::build(graph, &error);
    QVERIFY2(schedule, qPrintable(error));
    const auto path = schedule->criticalPath();
    QCOMPARE(path.size(), size_t(2 * depth - 1));
    QCOMPARE(path.front(), (PathSection{0, 0, 1}));
    QCOMPARE(path[size_t(depth) - 1], (PathSection{depth - 1, depth - 1, depth + 1}));
    QCOMPARE(path.back(), (PathSection{0, 2 * depth - 1, 2 * depth}));
    QCOMPARE(schedule->slack()[size_t(depth) - 1], qint64(0));
}

void tst_CriticalPath::longDependencyChain()
{
    // 100,000 siblings one after another, each depending on the previous,
    // plus one short parallel sibling with all the slack.
    constexpr qint32 length = 100'000;
    auto graph = std::make_shared<SpanGraph>();
    SpanGraph::Span root;
    root.end = 10 * length;
    graph->appendSpan(root);
    for (qint32 i = 0; i < length; ++i) {
        SpanGraph::Span span;
        span.parent = 0;
        span.start = 10 * qint64(i) + 1;
        span.end = 10 * qint64(i) + 9;
        graph->appendSpan(span);
        if (i > 0)
            graph->addDependency({i, i + 1});
    }
    SpanGraph::Span side;
    side.parent = 0;
    side.start = 0;
    side.end = 5;
    const qint32 sideRow = graph->appendSpan(side);
    QString error;
    const auto schedule = WorkflowSchedule::build(graph, &error);
    QVERIFY2(schedule, qPrintable(error));
    const auto path = schedule->criticalPath();
    QCOMPARE(path.size(), size_t(2 * length + 1)); // each sibling plus the root's gaps
    QCOMPARE(path[1], (PathSection{1, 1, 9}));
    QCOMPARE(path[path.size() - 2], (PathSection{length, 10 * qint64(length) - 9, 10 * qint64(length) - 1}));
    // It only has to end before the root's last unit of own time.
    QCOMPARE(schedule->slack()[size_t(sideRow)], qint64(10 * length - 1 - 5));
}

void tst_CriticalPath::millionSpanWorkflow()
{
    // A root with 999 sequential steps 100 apart, each fanning out to 1,000
    // parallel leaves: 1,000,000 spans. Leaf 999 of each step is the longest
    // (80); leaf j < 999 lasts j % 70 and has 80 - j % 70 of slack.
    constexpr qint32 steps = 999;
    constexpr qint32 leaves = 1000;
    auto graph = std::make_shared<SpanGraph>();
    SpanGraph::Span root;
    root.end = 100 * qint64(steps);
    graph->appendSpan(root);
    for (qint32 i = 0; i < steps; ++i) {
        SpanGraph::Span step;
        step.parent = 0;
        step.start = 100 * qint64(i);
        step.end = step.start + 90;
        const qint32 stepRow = graph->appendSpan(step);
        for (qint32 j = 0; j < leaves; ++j) {
            SpanGraph::Span leaf;
            leaf.parent = stepRow;
            leaf.start = step.start + 1;
            leaf.end = leaf.start + (j == leaves - 1 ? 80 : j % 70);
            graph->appendSpan(leaf);
        }
    }
    QCOMPARE(graph->spanCount(), 1'000'000);
    QString error;
    const auto schedule = WorkflowSchedule::build(graph, &error);
    QVERIFY2(schedule, qPrintable(error));
    QCOMPARE(schedule->timing().e2e(), qint64(99'900));
    const auto path = schedule->criticalPath();
    // Per step: its own first unit, the longest leaf, its own tail; then the root's gap.
    QCOMPARE(path.size(), size_t(4 * steps));
    const qint32 firstStep = 1;
    const qint32 lastStep = 1 + (steps - 1) * (leaves + 1);
    QCOMPARE(path[0], (PathSection{firstStep, 0, 1}));
    QCOMPARE(path[1], (PathSection{firstStep + leaves, 1, 81}));
    QCOMPARE(path[2], (PathSection{firstStep, 81, 90}));
    QCOMPARE(path[3], (PathSection{0, 90, 100}));
    QCOMPARE(path[path.size() - 3], (PathSection{lastStep + leaves, 99'801, 99'881}));
    QCOMPARE(path.back(), (PathSection{0, 99'890, 99'900}));
    qint64 total = 0;
    for (const auto &section : path)
        total += section.duration();
    QCOMPARE(total, schedule->timing().e2e());
    const auto slack = schedule->slack();
    const qint32 middleStep = 1 + 500 * (leaves + 1);
    QCOMPARE(slack[size_t(middleStep)], qint64(0));
    QCOMPARE(slack[size_t(middleStep + 1 + 5)], qint64(75)); // leaf 5: lasts 5
    QCOMPARE(slack[size_t(middleStep + 1 + 139)], qint64(80 - 139 % 70));
    QCOMPARE(slack[size_t(middleStep + leaves)], qint64(0)); // the longest leaf
}

QTEST_GUILESS_MAIN(tst_CriticalPath)
#include "tst_criticalpath.moc"
