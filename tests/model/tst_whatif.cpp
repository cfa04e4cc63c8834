#include "SpanGraphSpec.h"

#include "analysis/workflows/PopulationWhatIf.h"
#include "analysis/workflows/WhatIf.h"
#include "support/AdviserScenario.h"

#include <QTest>

#include <cmath>

Q_DECLARE_METATYPE(WhatIfEdit)

class tst_WhatIf : public QObject
{
    Q_OBJECT
private slots:
    void adviserBaseline();
    void adviserAccountRetrievalSlack();
    void adviserAccountAfterPolicy();
    void adviserSavings_data();
    void adviserSavings();
    void combinedEdits();
    void unmatchedEditsChangeNothing_data();
    void unmatchedEditsChangeNothing();
    void joinGapStaysWithTheJoin();
    void hypotheticalCycleIsReported();
    void parse_data();
    void parse();
    void parseErrors_data();
    void parseErrors();
    void populationPercentile();
};

namespace {

constexpr qint64 kMs = 1'000'000;

WorkflowSchedule adviser(const AdviserScenario::Options &options = {})
{
    QString error;
    auto schedule = WorkflowSchedule::build(AdviserScenario::graph(options), &error);
    if (!schedule)
        qFatal("adviser scenario does not schedule: %s", qPrintable(error));
    return std::move(*schedule);
}

qint32 rowOf(const SpanGraph &graph, const char *id)
{
    for (qint32 span = 0; span < graph.spanCount(); ++span) {
        if (graph.id(span) == id)
            return span;
    }
    return -1;
}

WhatIfEdit scale(const QString &target, double factor)
{
    WhatIfEdit edit;
    edit.kind = WhatIfEdit::Kind::ScaleSpans;
    edit.target = SpanSelector::parse(target);
    edit.factor = factor;
    return edit;
}

WhatIfEdit scalePhase(const QString &target, Phase phase, double factor)
{
    WhatIfEdit edit;
    edit.kind = WhatIfEdit::Kind::ScalePhase;
    edit.target = SpanSelector::parse(target);
    edit.phase = phase;
    edit.factor = factor;
    return edit;
}

WhatIfEdit shorten(qint32 tokens, double msPerToken)
{
    WhatIfEdit edit;
    edit.kind = WhatIfEdit::Kind::ShortenAnswer;
    edit.tokens = tokens;
    edit.msPerToken = msPerToken;
    return edit;
}

WhatIfEdit dependency(const QString &from, const QString &to)
{
    WhatIfEdit edit;
    edit.kind = WhatIfEdit::Kind::AddDependency;
    edit.from = SpanSelector::parse(from);
    edit.target = SpanSelector::parse(to);
    return edit;
}

} // namespace

void tst_WhatIf::adviserBaseline()
{
    const auto schedule = adviser();
    QCOMPARE(schedule.timing().ttft(), 1550 * kMs);
    QCOMPARE(schedule.timing().e2e(), 5986 * kMs);
    QCOMPARE(SpanGraphSpec::format(schedule.graph(), schedule.criticalPath(), kMs),
             QStringLiteral("inbound transit 0-70, gateway and policy 70-115, policy retrieval 115-545, "
                            "prompt assembly 545-570, model call: tool proposal 570-1946, "
                            "calculation tool 1946-2706, model call: final answer 2706-5986"));
    QVERIFY(schedule.notices().isEmpty());
}

void tst_WhatIf::adviserAccountRetrievalSlack()
{
    const auto schedule = adviser();
    const auto &graph = schedule.graph();
    const auto slack = schedule.slack();
    QCOMPARE(slack[size_t(rowOf(graph, "account"))], 150 * kMs);
    QCOMPARE(slack[size_t(rowOf(graph, "policy"))], qint64(0));
    QCOMPARE(slack[size_t(rowOf(graph, "tool"))], qint64(0));
    const auto onPath = spansOnPath(schedule.criticalPath(), graph.spanCount());
    QCOMPARE(onPath[size_t(rowOf(graph, "account"))], quint8(0));
    QCOMPARE(onPath[size_t(rowOf(graph, "policy"))], quint8(1));
}

void tst_WhatIf::adviserAccountAfterPolicy()
{
    // Recorded that way: both retrievals on the path, 280 ms more in total.
    AdviserScenario::Options options;
    options.accountAfterPolicy = true;
    const auto schedule = adviser(options);
    const auto &graph = schedule.graph();
    QCOMPARE(schedule.timing().e2e(), (5986 + 280) * kMs);
    QCOMPARE(schedule.timing().e2e() - adviser().timing().e2e(), 280 * kMs);
    const auto onPath = spansOnPath(schedule.criticalPath(), graph.spanCount());
    QCOMPARE(onPath[size_t(rowOf(graph, "account"))], quint8(1));
    QCOMPARE(onPath[size_t(rowOf(graph, "policy"))], quint8(1));
    QCOMPARE(schedule.slack()[size_t(rowOf(graph, "account"))], qint64(0));
}

void tst_WhatIf::adviserSavings_data()
{
    QTest::addColumn<WhatIfEdit>("edit");
    QTest::addColumn<qint64>("e2eSaving");  // ns
    QTest::addColumn<qint64>("ttftSaving"); // ns

    // PRODUCT.md's acceptance figures.
    QTest::newRow("first prefill -25%") << scalePhase(QStringLiteral("chat@1"), Phase::Prefill, 0.75)
                                        << qint64(71'250'000) << qint64(71'250'000);
    QTest::newRow("first queue -50%") << scalePhase(QStringLiteral("chat@1"), Phase::Queue, 0.5) << 305 * kMs
                                      << 305 * kMs;
    QTest::newRow("tool -1/3") << scale(QStringLiteral("calculation tool"), 2.0 / 3.0) << qint64(253'333'333)
                               << qint64(0);
    QTest::newRow("final answer 30 tokens shorter at 24 ms/token") << shorten(30, 24.0) << 720 * kMs << qint64(0);
    QTest::newRow("account depends on policy")
        << dependency(QStringLiteral("policy"), QStringLiteral("account")) << -280 * kMs << -280 * kMs;
    // Slack at work: the parallel branch only matters past its 150 ms.
    QTest::newRow("account retrieval halved") << scale(QStringLiteral("account"), 0.5) << qint64(0) << qint64(0);
    QTest::newRow("account retrieval x1.5 (within slack)")
        << scale(QStringLiteral("account"), 1.5) << qint64(0) << qint64(0);
    QTest::newRow("account retrieval x2 (past slack)")
        << scale(QStringLiteral("account"), 2.0) << -130 * kMs << -130 * kMs;
    QTest::newRow("policy retrieval halved: account becomes longest")
        << scale(QStringLiteral("policy retrieval"), 0.5) << 150 * kMs << 150 * kMs;
    // A kind selects nested spans; the subtree is scaled once, not twice.
    QTest::newRow("every retrieval halved") << scale(QStringLiteral("retrieval"), 0.5) << 215 * kMs << 215 * kMs;
    QTest::newRow("every model call halved") << scale(QStringLiteral("chat"), 0.5) << 2328 * kMs << 490 * kMs;
    QTest::newRow("queue phase of every span") << scalePhase(QString(), Phase::Queue, 0.0) << 610 * kMs << 610 * kMs;
    QTest::newRow("whole workflow x2") << scale(QStringLiteral("invoke_agent"), 2.0) << -5986 * kMs << -1550 * kMs;
}

void tst_WhatIf::adviserSavings()
{
    QFETCH(WhatIfEdit, edit);
    QFETCH(qint64, e2eSaving);
    QFETCH(qint64, ttftSaving);
    const auto outcome = WhatIf::run(adviser(), std::span(&edit, 1));
    QVERIFY2(outcome.ok(), qPrintable(outcome.error));
    QVERIFY2(outcome.unmatched.isEmpty(), qPrintable(outcome.unmatched.join(QLatin1Char('\n'))));
    QCOMPARE(outcome.applied.size(), 1);
    QCOMPARE(outcome.e2eSaving(), e2eSaving);
    QCOMPARE(outcome.ttftSaving(), ttftSaving);
    // The new path still accounts for the whole new total.
    qint64 total = 0;
    for (const auto &section : outcome.pathAfter)
        total += section.duration();
    QCOMPARE(total, outcome.after.e2e());
}

void tst_WhatIf::combinedEdits()
{
    const std::vector<WhatIfEdit> edits = {scalePhase(QStringLiteral("chat@1"), Phase::Prefill, 0.75),
                                           scalePhase(QStringLiteral("chat@1"), Phase::Queue, 0.5),
                                           scale(QStringLiteral("tool"), 2.0 / 3.0), shorten(30, 24.0)};
    const auto outcome = WhatIf::run(adviser(), edits);
    QCOMPARE(outcome.applied.size(), 4);
    QCOMPARE(outcome.e2eSaving(), qint64(71'250'000 + 305 * kMs + 253'333'333 + 720 * kMs));
    QCOMPARE(outcome.after.e2e(), qint64(5986 * kMs - 1'349'583'333));
    QCOMPARE(outcome.ttftSaving(), qint64(376'250'000));
}

void tst_WhatIf::unmatchedEditsChangeNothing_data()
{
    QTest::addColumn<WhatIfEdit>("edit");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown span") << scale(QStringLiteral("reranker"), 0.5)
                                  << QStringLiteral("'reranker' ×0.5: no span or kind matches");
    QTest::newRow("phase the span lacks") << scalePhase(QStringLiteral("chat@2"), Phase::Prefill, 0.5)
                                          << QStringLiteral("prefill of 'chat' #2 ×0.5: no selected span has a "
                                                            "prefill phase");
    QTest::newRow("ordinal past the matches")
        << scale(QStringLiteral("chat@3"), 0.5) << QStringLiteral("'chat' #3 ×0.5: no span or kind matches");
    QTest::newRow("dependency on an ancestor")
        << dependency(QStringLiteral("root"), QStringLiteral("account"))
        << QStringLiteral("'account retrieval' waits for 'governed adviser response': a span already waits for its "
                          "ancestors and its descendants");
}

void tst_WhatIf::unmatchedEditsChangeNothing()
{
    QFETCH(WhatIfEdit, edit);
    QFETCH(QString, message);
    const auto outcome = WhatIf::run(adviser(), std::span(&edit, 1));
    QVERIFY(outcome.ok());
    QCOMPARE(outcome.unmatched, QStringList{message});
    QVERIFY(outcome.applied.isEmpty());
    QCOMPARE(outcome.e2eSaving(), qint64(0));
    QVERIFY(outcome.pathAfter == outcome.pathBefore);
}

void tst_WhatIf::joinGapStaysWithTheJoin()
{
    // C starts 5 after the later of A and B. Shortening B moves C by as much
    // as B's lead over A (the gap stays); shortening A moves nothing.
    const auto build = [] {
        QString error;
        return *WorkflowSchedule::build(SpanGraphSpec::parse(QStringLiteral("R 0 100; A 0 30 R; B 0 50 R; "
                                                                            "C 55 90 R")),
                                        &error);
    };
    const auto schedule = build();
    const WhatIfEdit halveB = scale(QStringLiteral("B"), 0.5); // B 25: the join is now A at 30
    const auto outcome = WhatIf::run(schedule, std::span(&halveB, 1));
    QCOMPARE(outcome.e2eSaving(), qint64(20'000));
    QCOMPARE(SpanGraphSpec::format(schedule.graph(), outcome.pathAfter),
             QStringLiteral("A 0-30, R 30-35, C 35-70, R 70-80"));
    QCOMPARE(outcome.slackAfter[2], qint64(5'000)); // B: 25 → could end at 30
    const WhatIfEdit halveA = scale(QStringLiteral("A"), 0.5);
    QCOMPARE(WhatIf::run(schedule, std::span(&halveA, 1)).e2eSaving(), qint64(0));
}

void tst_WhatIf::hypotheticalCycleIsReported()
{
    const std::vector<WhatIfEdit> edits = {dependency(QStringLiteral("tool"), QStringLiteral("call1"))};
    const auto outcome = WhatIf::run(adviser(), edits);
    QVERIFY(!outcome.ok());
    QVERIFY2(outcome.error.startsWith(QStringLiteral("dependency cycle through spans")), qPrintable(outcome.error));
    QVERIFY(outcome.error.contains(QStringLiteral("calculation tool")));
    QVERIFY(outcome.error.contains(QStringLiteral("model call: tool proposal")));
}

void tst_WhatIf::parse_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("described");

    QTest::newRow("scale by name") << QStringLiteral("scale") << QStringLiteral("calculation tool=2/3")
                                   << QStringLiteral("'calculation tool' ×0.666667");
    QTest::newRow("scale by per cent") << QStringLiteral("scale") << QStringLiteral("tool=-25%")
                                       << QStringLiteral("'tool' ×0.75");
    QTest::newRow("scale the second of a kind")
        << QStringLiteral("scale") << QStringLiteral("chat@2=0.5") << QStringLiteral("'chat' #2 ×0.5");
    QTest::newRow("phase everywhere") << QStringLiteral("scale-phase") << QStringLiteral("queue=0.5")
                                      << QStringLiteral("queue of every span ×0.5");
    QTest::newRow("phase of one span") << QStringLiteral("scale-phase") << QStringLiteral("chat@1:prefill=0.75")
                                       << QStringLiteral("prefill of 'chat' #1 ×0.75");
    QTest::newRow("shorten the final answer") << QStringLiteral("shorten-answer") << QStringLiteral("30@24")
                                              << QStringLiteral("answer of the last model call 30 tokens shorter "
                                                                "at 24 ms/token");
    QTest::newRow("shorten a named answer") << QStringLiteral("shorten-answer") << QStringLiteral("call2:10@20.5")
                                            << QStringLiteral("answer of 'call2' 10 tokens shorter at 20.5 "
                                                              "ms/token");
    QTest::newRow("add a dependency") << QStringLiteral("add-dependency") << QStringLiteral("policy>account")
                                      << QStringLiteral("'account' waits for 'policy'");
}

namespace {

bool parseOption(const QString &option, const QString &text, WhatIfEdit *edit, QString *error)
{
    if (option == QStringLiteral("scale"))
        return WhatIfEdit::parseScale(text, edit, error);
    if (option == QStringLiteral("scale-phase"))
        return WhatIfEdit::parseScalePhase(text, edit, error);
    if (option == QStringLiteral("shorten-answer"))
        return WhatIfEdit::parseShortenAnswer(text, edit, error);
    return WhatIfEdit::parseAddDependency(text, edit, error);
}

} // namespace

void tst_WhatIf::parse()
{
    QFETCH(QString, option);
    QFETCH(QString, text);
    QFETCH(QString, described);
    WhatIfEdit edit;
    QString error;
    QVERIFY2(parseOption(option, text, &edit, &error), qPrintable(error));
    QCOMPARE(edit.toString(), described);
}

void tst_WhatIf::parseErrors_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");

    QTest::newRow("no factor") << QStringLiteral("scale") << QStringLiteral("tool")
                               << QStringLiteral("'tool': expected SPAN_OR_KIND=FACTOR");
    QTest::newRow("negative factor") << QStringLiteral("scale") << QStringLiteral("tool=-2")
                                     << QStringLiteral("'-2' is not a factor; use a number ≥ 0 (0.75), a fraction "
                                                       "(2/3) or a change in per cent (-25%)");
    QTest::newRow("division by zero") << QStringLiteral("scale") << QStringLiteral("tool=1/0")
                                      << QStringLiteral("'1/0' is not a factor; use a number ≥ 0 (0.75), a fraction "
                                                        "(2/3) or a change in per cent (-25%)");
    QTest::newRow("unknown phase") << QStringLiteral("scale-phase") << QStringLiteral("decode=0.5")
                                   << QStringLiteral("'decode=0.5': unknown phase 'decode'; use one of network_in, "
                                                     "gateway, queue, prefill, first_decode, network_to_first, "
                                                     "stream");
    QTest::newRow("tokens without rate") << QStringLiteral("shorten-answer") << QStringLiteral("30")
                                         << QStringLiteral("'30': expected [SPAN:]N@MS_PER_TOKEN, e.g. 30@24");
    QTest::newRow("dependency without target") << QStringLiteral("add-dependency") << QStringLiteral("policy>")
                                               << QStringLiteral("'policy>': expected FROM>TO (TO waits for FROM "
                                                                 "to end)");
}

void tst_WhatIf::parseErrors()
{
    QFETCH(QString, option);
    QFETCH(QString, text);
    QFETCH(QString, error);
    WhatIfEdit edit;
    QString message;
    QVERIFY(!parseOption(option, text, &edit, &message));
    QCOMPARE(message, error);
}

void tst_WhatIf::populationPercentile()
{
    // Ten adviser responses whose first queue waits 100, 200, ..., 1000 ms.
    // Totals are 5476 + queue; halving the queue takes queue/2 off each.
    PopulationWhatIf population({scalePhase(QString(), Phase::Queue, 0.5)});
    for (int i = 1; i <= 10; ++i) {
        AdviserScenario::Options options;
        options.firstQueueMs = 100.0 * i;
        population.add(adviser(options));
    }
    const auto result = population.result(0.95);
    QCOMPARE(result.workflows, qint64(10));
    QCOMPARE(result.changed, qint64(10));
    QCOMPARE(result.failed, qint64(0));
    // p95 rank 8.55 between the 9th and 10th totals.
    QCOMPARE(result.e2eBeforeMs, 5376.0 + 955.0);
    QCOMPARE(result.e2eAfterMs, 5376.0 + 477.5);
    QCOMPARE(result.e2eSavingMs(), 477.5);
    QCOMPARE(result.ttftBeforeMs, 940.0 + 955.0);
    QCOMPARE(result.ttftAfterMs, 940.0 + 477.5);
}

QTEST_GUILESS_MAIN(tst_WhatIf)
#include "tst_whatif.moc"
