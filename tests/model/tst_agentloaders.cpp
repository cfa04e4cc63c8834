#include "io/LoadControl.h"
#include "io/TraceFileLoader.h"
#include "support/TestData.h"

#include <QTest>

#include <cmath>

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

QStringList noticeText(const TraceStore &store)
{
    QStringList lines;
    for (const auto &notice : store.notices)
        lines << notice.toString();
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

} // namespace

class tst_AgentLoaders : public QObject
{
    Q_OBJECT
private slots:
    void formatsAreDetected_data();
    void formatsAreDetected();
    void anyAgentIdsAreLossless();
    void anyAgentGoogleKeepsOrphans();
    void langfuseMetadataIsParsed();
    void malformedInputs_data();
    void malformedInputs();
    void cancelStopsTheLoad_data();
    void cancelStopsTheLoad();
};

void tst_AgentLoaders::formatsAreDetected_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<TraceFormat>("format");
    QTest::addColumn<QString>("storeFormat");
    QTest::newRow("any-agent OpenAI") << realdata(QStringLiteral("any-agent/OPENAI_trace.json"))
                                      << TraceFormat::AnyAgent << QStringLiteral("any-agent");
    QTest::newRow("any-agent Google") << realdata(QStringLiteral("any-agent/GOOGLE_trace.json"))
                                      << TraceFormat::AnyAgent << QStringLiteral("any-agent");
    QTest::newRow("Langfuse") << realdata(QStringLiteral("langfuse/microsoft-agent-2025-12-17.trace.json"))
                              << TraceFormat::Langfuse << QStringLiteral("langfuse");
}

void tst_AgentLoaders::formatsAreDetected()
{
    QFETCH(QString, file);
    QFETCH(TraceFormat, format);
    QFETCH(QString, storeFormat);
    QCOMPARE(TraceFileLoader::detect(file), format);
    const LoadResult result = TraceFileLoader::load(file, {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(result.store->format, storeFormat);
    QCOMPARE(rejectedText(*result.store), QStringList());
}

void tst_AgentLoaders::anyAgentIdsAreLossless()
{
    const LoadResult result = TraceFileLoader::load(realdata(QStringLiteral("any-agent/OPENAI_trace.json")), {});
    QVERIFY(result.ok());
    const TraceStore &store = *result.store;
    const SpanTable &spans = store.spans;
    QCOMPARE(spans.rowCount(), 6);
    QCOMPARE(noticeText(store), QStringList());
    // 100927429609276267646756448943279827607 is beyond 2^53 and 2^64: a
    // double would round it; the id must come out exact.
    QCOMPARE(store.workflows.traceIdText(0), QStringLiteral("4bedea77bb33b9c5f280371eae21ea97"));
    QCOMPARE(spans.spanIdText(0), QStringLiteral("8100d9dbee1f3e47")); // 9295669169508793927
    const qsizetype root = rowOf(spans, "ab08afea3548c547");           // 12324293800750531911
    QCOMPARE(root, 5);
    QCOMPARE(store.workflows.rootSpan[0], 5);
    for (qsizetype row = 0; row < 5; ++row)
        QCOMPARE(spans.parent(row), 5);
    QCOMPARE(spans.parent(root), -1);
    QCOMPARE(spans.category(0), SpanCategory::ModelCall); // call_llm
    QCOMPARE(spans.operation(0), QStringLiteral("call_llm"));
    QCOMPARE(spans.category(1), SpanCategory::Tool);
    QCOMPARE(spans.category(root), SpanCategory::Agent);
    QCOMPARE(spans.kind(0), SpanKind::Internal);
    QCOMPARE(spans.status(0), SpanStatus::Ok);
    QCOMPARE(spans.status(root), SpanStatus::Unset);
    QCOMPARE(spans.start(0), 1'758'026'593'210'770'000LL);
    QCOMPARE(spans.duration(0), 238'841'000LL);
    QCOMPARE(spans.inputTokens(0), 269);
    QCOMPARE(spans.outputTokens(0), 16);
    QCOMPARE(spans.number(*spans.findAttribute(0, "gen_ai.usage.input_cost")), 2.69e-05);
    QCOMPARE(spans.attributeText(1, "gen_ai.tool.name"), QStringLiteral("get_current_time"));
    QCOMPARE(spans.service(0), QStringLiteral("unknown_service"));
    QCOMPARE(spans.resources().size(), size_t(1)); // every span repeats it; kept once
    // 269 + 359 + 392 in, 16 + 14 + 46 out.
    QCOMPARE(store.requests.promptTokens(0), 1020);
    QCOMPARE(store.requests.outputTokens(0), 76);
    QCOMPARE(store.requests.stamp(0, Stamp::LastTokenClient) - store.requests.stamp(0, Stamp::ClientSend),
             1'227'250'000LL);
    QCOMPARE(store.requests.stamp(0, Stamp::FirstTokenClient), kNoTime); // no token times: no TTFT, not guessed
}

void tst_AgentLoaders::anyAgentGoogleKeepsOrphans()
{
    const LoadResult result = TraceFileLoader::load(realdata(QStringLiteral("any-agent/GOOGLE_trace.json")), {});
    QVERIFY(result.ok());
    const TraceStore &store = *result.store;
    const SpanTable &spans = store.spans;
    QCOMPARE(spans.rowCount(), 7);
    // Six spans name parents that were never exported; each lies inside the
    // agent's span, the only one with a real root, and is attached to it.
    int orphans = 0;
    for (qsizetype row = 0; row < spans.rowCount(); ++row) {
        orphans += (spans.flags(row) & SpanTable::Orphan) ? 1 : 0;
        if (row == 6)
            continue;
        QCOMPARE(spans.flags(row) & (SpanTable::Orphan | SpanTable::Adopted), SpanTable::Orphan | SpanTable::Adopted);
        QCOMPARE(spans.parent(row), 6);
    }
    QCOMPARE(orphans, 6);
    QCOMPARE(spans.parent(6), -1);
    QCOMPARE(spans.flags(6), quint8(SpanTable::NoFlags));
    QCOMPARE(store.workflows.rootSpan[0], 6);
    QCOMPARE(spans.name(6), QStringLiteral("invoke_agent [any_agent]"));
    QCOMPARE(store.workflows.traceIdText(0), QStringLiteral("cdbd7b99cef221c28dd6d03c27d09b4c"));
    const QStringList notices = noticeText(store);
    QCOMPARE(notices.size(), 7);
    QCOMPARE(notices.first(),
             QStringLiteral("GOOGLE_trace.json: span 28b3922a9d89a4ac 'call_llm mistral/mistral-small-latest': parent "
                            "f0c22a1083ed1935 not in trace, attached to 773076b4028f3d19 'invoke_agent [any_agent]', "
                            "the span enclosing it"));
    QCOMPARE(notices.last(),
             QStringLiteral("GOOGLE_trace.json: 6 spans name a parent that is not in the file; kept and flagged as "
                            "orphans; each is attached to the span enclosing it"));
    QCOMPARE(store.requests.promptTokens(0), 2251);
    QCOMPARE(store.requests.outputTokens(0), 86);
    QCOMPARE(store.requests.attribute(QStringLiteral("model_calls"))->number(0), 3.0);
    QCOMPARE(store.requests.attribute(QStringLiteral("tool_calls"))->number(0), 3.0);
}

void tst_AgentLoaders::langfuseMetadataIsParsed()
{
    const LoadResult result
        = TraceFileLoader::load(realdata(QStringLiteral("langfuse/microsoft-agent-2025-12-17.trace.json")), {});
    QVERIFY(result.ok());
    const TraceStore &store = *result.store;
    const SpanTable &spans = store.spans;
    QCOMPARE(spans.rowCount(), 4);
    QCOMPARE(noticeText(store), QStringList());
    QCOMPARE(store.workflows.traceIdText(0), QStringLiteral("8e419d3288419b5d944270505640e183"));
    const qsizetype agent = rowOf(spans, "4cd6caa32861956a");
    const qsizetype chat = rowOf(spans, "2406e8343fd49c0e");
    const qsizetype tool = rowOf(spans, "a2de97aac476c036");
    QCOMPARE(agent, 0);
    QCOMPARE(spans.parent(chat), qint32(agent));
    QCOMPARE(spans.parent(tool), qint32(agent));
    QCOMPARE(spans.category(agent), SpanCategory::Agent);
    QCOMPARE(spans.category(chat), SpanCategory::ModelCall);
    QCOMPARE(spans.category(tool), SpanCategory::Tool);
    // ISO-8601 with ms, exact.
    QCOMPARE(spans.start(agent), 1'765'964'257'258'000'000LL); // 2025-12-17T09:37:37.258Z
    QCOMPARE(spans.duration(agent), 4'364'000'000LL);
    QCOMPARE(spans.duration(tool), 0LL);
    // Attributes come out of the metadata string with their stringified values read back as numbers.
    QCOMPARE(spans.attributeText(chat, "gen_ai.usage.input_tokens"), QStringLiteral("77"));
    QCOMPARE(spans.number(*spans.findAttribute(chat, "gen_ai.usage.input_tokens")), 77.0);
    QCOMPARE(spans.attributeText(chat, "gen_ai.response.model"), QStringLiteral("gpt-5-mini-2025-08-07"));
    QCOMPARE(spans.attributeText(tool, "gen_ai.tool.name"), QStringLiteral("get_weather"));
    QCOMPARE(spans.inputTokens(chat), 77);
    QCOMPARE(spans.outputTokens(chat), 86);
    QCOMPARE(spans.service(chat), QStringLiteral("unknown_service"));
    const auto &scope = spans.scopes()[size_t(spans.scope(chat))];
    QCOMPARE(spans.text(scope.name), QStringLiteral("agent_framework"));
    QCOMPARE(spans.text(scope.version), QStringLiteral("1.0.0b251216"));
    QCOMPARE(spans.scopes().size(), size_t(1));
    // The agent reports its own usage (44 in, 180 out) that is not the sum of
    // its calls'; the calls' usage (77 + 216, 86 + 20) is what is counted.
    QCOMPARE(spans.inputTokens(agent), 44);
    QCOMPARE(spans.outputTokens(agent), 180);
    QCOMPARE(store.requests.promptTokens(0), 293);
    QCOMPARE(store.requests.outputTokens(0), 106);
    QCOMPARE(store.requests.attribute(QStringLiteral("model"))->text(0), QStringLiteral("gpt-5-mini"));
}

void tst_AgentLoaders::malformedInputs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("loaded");
    QTest::addColumn<QStringList>("rejected");
    QTest::addColumn<QStringList>("notices");

    const QString any = QStringLiteral("anyagent-bad-values.json: ");
    const QString trace = QStringLiteral("trace 4bedea77bb33b9c5f280371eae21ea97: ");
    QTest::newRow("any-agent")
        << QStringLiteral("anyagent-bad-values.json") << 1
        << QStringList{
               any
                   + QStringLiteral("trace -5: span (no id): field 'spans[0].context.trace_id': '-5' is not a "
                                    "non-negative decimal integer"),
               any + trace
                   + QStringLiteral("span 1.5: field 'spans[1].context.span_id': must be an integer id, got number"),
               any
                   + QStringLiteral("trace 340282366920938463463374607431768211456: span (no id): field "
                                    "'spans[2].context.trace_id': '340282366920938463463374607431768211456' does "
                                    "not fit in 128 bits"),
               any + trace + QStringLiteral("span 0000000000000004: field 'end_time': the span ends 1000 ns before it starts"),
               any + trace + QStringLiteral("span 0000000000000005: field 'spans[4].start_time': missing"),
               any + trace
                   + QStringLiteral("span 0000000000000007: field 'end_time': the span lasts 1157.4 days, more than "
                                    "the 30-day limit; a timestamp is probably in the wrong unit"),
           }
        << QStringList();
    const QString lf = QStringLiteral("langfuse-bad-values.json: trace 8e419d3288419b5d944270505640e183: ");
    QTest::newRow("Langfuse")
        << QStringLiteral("langfuse-bad-values.json") << 3
        << QStringList{
               lf
                   + QStringLiteral("span 0000000000000002: field 'observations[1].startTime': 'yesterday' is not an "
                                    "ISO-8601 time"),
               lf + QStringLiteral("span 0000000000000003: field 'observations[2].endTime': missing"),
               lf + QStringLiteral("span (no id): field 'observations[5].id': missing"),
               lf
                   + QStringLiteral("span 0000000000000007: field 'observations[6].startTime': "
                                    "'2025-02-30T00:00:00Z' is not an ISO-8601 time"),
               lf
                   + QStringLiteral("span 0000000000000008: field 'observations[7].startTime': must be an ISO-8601 "
                                    "time, got number"),
           }
        << QStringList{QStringLiteral("langfuse-bad-values.json: observation 0000000000000004: metadata is not valid "
                                      "JSON; its attributes are not read")};
}

void tst_AgentLoaders::malformedInputs()
{
    QFETCH(QString, file);
    QFETCH(int, loaded);
    QFETCH(QStringList, rejected);
    QFETCH(QStringList, notices);
    const LoadResult result = TraceFileLoader::load(fixture(QStringLiteral("malformed/spans/") + file), {});
    QVERIFY2(result.ok(), qPrintable(result.fatalError));
    QCOMPARE(rejectedText(*result.store), rejected);
    QCOMPARE(noticeText(*result.store), notices);
    QCOMPARE(result.store->spans.rowCount(), loaded);
}

void tst_AgentLoaders::cancelStopsTheLoad_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("any-agent") << realdata(QStringLiteral("any-agent/OPENAI_trace.json"));
    QTest::newRow("Langfuse") << realdata(QStringLiteral("langfuse/microsoft-agent-2025-12-17.trace.json"));
    QTest::newRow("Jaeger") << realdata(QStringLiteral("jaeger-ui/genaiTestTrace.json"));
}

void tst_AgentLoaders::cancelStopsTheLoad()
{
    QFETCH(QString, file);
    LoadControl control;
    control.cancel();
    const LoadResult result = TraceFileLoader::load(file, {}, &control);
    QVERIFY(result.cancelled);
    QVERIFY(!result.ok());
    QCOMPARE(result.store->spans.rowCount(), 0);
}

QTEST_GUILESS_MAIN(tst_AgentLoaders)
#include "tst_agentloaders.moc"
