#include "io/GenAiSemantics.h"
#include "io/SpanTraceBuilder.h"
#include "io/WorkflowSummary.h"

#include <QTest>

namespace {

constexpr qint64 kMs = 1'000'000;
constexpr qint64 kT0 = 1'700'000'000'000'000'000LL;

void addAttribute(SpanRecord &record, const char *key, const std::string &text,
                  AttributeValue::Type type = AttributeValue::Type::String)
{
    SpanAttribute &attribute = record.attributes.add();
    attribute.key = key;
    attribute.value.type = type;
    attribute.value.text = text;
    if (type == AttributeValue::Type::Int) {
        attribute.value.integer = std::stoll(text);
        attribute.value.number = double(attribute.value.integer);
    } else if (type == AttributeValue::Type::Double) {
        attribute.value.number = std::stod(text);
    }
}

void addTimes(SpanRecord &record, const char *key, std::initializer_list<qint64> msFromStart)
{
    SpanAttribute &attribute = record.attributes.add();
    attribute.key = key;
    attribute.value.type = AttributeValue::Type::Array;
    for (const qint64 ms : msFromStart)
        attribute.value.elements.push_back(std::to_string(kT0 + ms * kMs));
}

// A span of trace "t1" from `startMs` to `endMs` after kT0.
SpanRecord &span(SpanRecord &record, const char *id, const char *parent, const char *name, qint64 startMs, qint64 endMs)
{
    record.clear();
    record.traceId = "000000000000000000000000000000t1";
    record.spanId = id;
    record.parentSpanId = parent;
    record.name = name;
    record.start = kT0 + startMs * kMs;
    record.end = kT0 + endMs * kMs;
    return record;
}

void addUsage(SpanRecord &record, int input, int output)
{
    addAttribute(record, "gen_ai.usage.input_tokens", std::to_string(input), AttributeValue::Type::Int);
    addAttribute(record, "gen_ai.usage.output_tokens", std::to_string(output), AttributeValue::Type::Int);
}

} // namespace

class tst_GenAi : public QObject
{
    Q_OBJECT
private slots:
    void operationCategories_data();
    void operationCategories();
    void fallbackClassification_data();
    void fallbackClassification();
    void tokenSpellings_data();
    void tokenSpellings();
    void vllmLatencyMapsToPhases();
    void usageIsNotCountedTwice();
    void firstContentBearingTokenIsTheWorkflowTtft();
    void workflowWithoutTokenTimesHasNoTtft();
    void backwardsStampIsLeftOutOfTheWorkflowRow();
};

void tst_GenAi::operationCategories_data()
{
    QTest::addColumn<QString>("operation");
    QTest::addColumn<SpanCategory>("category");
    QTest::newRow("chat") << QStringLiteral("chat") << SpanCategory::ModelCall;
    QTest::newRow("text_completion") << QStringLiteral("text_completion") << SpanCategory::ModelCall;
    QTest::newRow("generate_content") << QStringLiteral("generate_content") << SpanCategory::ModelCall;
    QTest::newRow("any-agent call_llm") << QStringLiteral("call_llm") << SpanCategory::ModelCall;
    QTest::newRow("upper case") << QStringLiteral("CHAT") << SpanCategory::ModelCall;
    QTest::newRow("execute_tool") << QStringLiteral("execute_tool") << SpanCategory::Tool;
    QTest::newRow("invoke_agent") << QStringLiteral("invoke_agent") << SpanCategory::Agent;
    QTest::newRow("create_agent") << QStringLiteral("create_agent") << SpanCategory::Agent;
    QTest::newRow("retrieval") << QStringLiteral("retrieval") << SpanCategory::Retrieval;
    QTest::newRow("embeddings") << QStringLiteral("embeddings") << SpanCategory::Embeddings;
    QTest::newRow("unknown stays open-ended") << QStringLiteral("rerank") << SpanCategory::Other;
    QTest::newRow("empty") << QString() << SpanCategory::Other;
}

void tst_GenAi::operationCategories()
{
    QFETCH(QString, operation);
    QFETCH(SpanCategory, category);
    QCOMPARE(GenAiSemantics::categoryOfOperation(operation.toStdString()), category);
}

void tst_GenAi::fallbackClassification_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("type"); // SpanRecord::operation (a format's own kind)
    QTest::addColumn<QString>("name");
    QTest::addColumn<SpanCategory>("category");
    QTest::addColumn<QString>("operation");
    QTest::newRow("gen_ai.operation.name wins")
        << QStringLiteral("gen_ai.operation.name") << QStringLiteral("execute_tool") << QStringLiteral("GENERATION")
        << QStringLiteral("call_llm x") << SpanCategory::Tool << QStringLiteral("execute_tool");
    QTest::newRow("unknown operation keeps its name")
        << QStringLiteral("gen_ai.operation.name") << QStringLiteral("rerank") << QString()
        << QStringLiteral("rerank docs") << SpanCategory::Other << QStringLiteral("rerank");
    QTest::newRow("OpenInference LLM") << QStringLiteral("openinference.span.kind") << QStringLiteral("LLM")
                                       << QString() << QStringLiteral("completion") << SpanCategory::ModelCall
                                       << QStringLiteral("llm");
    QTest::newRow("OpenInference retriever")
        << QStringLiteral("openinference.span.kind") << QStringLiteral("RETRIEVER") << QString()
        << QStringLiteral("search") << SpanCategory::Retrieval << QStringLiteral("retriever");
    QTest::newRow("Traceloop tool") << QStringLiteral("traceloop.span.kind") << QStringLiteral("tool") << QString()
                                    << QStringLiteral("lookup") << SpanCategory::Tool << QStringLiteral("tool");
    QTest::newRow("Langfuse GENERATION") << QString() << QString() << QStringLiteral("GENERATION")
                                         << QStringLiteral("gpt call") << SpanCategory::ModelCall
                                         << QStringLiteral("generation");
    QTest::newRow("any-agent span name") << QString() << QString() << QString()
                                         << QStringLiteral("call_llm mistral/mistral-small-latest")
                                         << SpanCategory::ModelCall << QStringLiteral("call_llm");
    QTest::newRow("vLLM request span") << QStringLiteral("gen_ai.latency.e2e") << QStringLiteral("1.5") << QString()
                                       << QStringLiteral("llm_request") << SpanCategory::ModelCall << QString();
    QTest::newRow("plain HTTP span") << QStringLiteral("http.method") << QStringLiteral("GET") << QString()
                                     << QStringLiteral("GET /health") << SpanCategory::Other << QString();
}

void tst_GenAi::fallbackClassification()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, type);
    QFETCH(QString, name);
    QFETCH(SpanCategory, category);
    QFETCH(QString, operation);
    SpanRecord record;
    record.name = name.toStdString();
    record.operation = type.toStdString();
    const std::string keyText = key.toStdString();
    if (!key.isEmpty())
        addAttribute(record, keyText.c_str(), value.toStdString());
    const auto meaning = GenAiSemantics::interpret(record);
    QCOMPARE(meaning.category, category);
    QCOMPARE(QString::fromStdString(meaning.operation), operation);
}

void tst_GenAi::tokenSpellings_data()
{
    QTest::addColumn<QString>("inputKey");
    QTest::addColumn<QString>("outputKey");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("type");
    QTest::newRow("current names, ints") << QStringLiteral("gen_ai.usage.input_tokens")
                                         << QStringLiteral("gen_ai.usage.output_tokens") << QStringLiteral("120")
                                         << int(AttributeValue::Type::Int);
    QTest::newRow("older names") << QStringLiteral("gen_ai.usage.prompt_tokens")
                                 << QStringLiteral("gen_ai.usage.completion_tokens") << QStringLiteral("120")
                                 << int(AttributeValue::Type::Int);
    QTest::newRow("llm.usage") << QStringLiteral("llm.usage.prompt_tokens")
                               << QStringLiteral("llm.usage.completion_tokens") << QStringLiteral("120")
                               << int(AttributeValue::Type::Int);
    QTest::newRow("OpenInference token_count")
        << QStringLiteral("llm.token_count.prompt") << QStringLiteral("llm.token_count.completion")
        << QStringLiteral("120") << int(AttributeValue::Type::Int);
    QTest::newRow("stringified (Langfuse)")
        << QStringLiteral("gen_ai.usage.input_tokens") << QStringLiteral("gen_ai.usage.output_tokens")
        << QStringLiteral("120") << int(AttributeValue::Type::String);
    QTest::newRow("a double with no fraction")
        << QStringLiteral("gen_ai.usage.input_tokens") << QStringLiteral("gen_ai.usage.output_tokens")
        << QStringLiteral("120.0") << int(AttributeValue::Type::Double);
}

void tst_GenAi::tokenSpellings()
{
    QFETCH(QString, inputKey);
    QFETCH(QString, outputKey);
    QFETCH(QString, text);
    QFETCH(int, type);
    SpanRecord record;
    const std::string input = inputKey.toStdString();
    const std::string output = outputKey.toStdString();
    addAttribute(record, input.c_str(), text.toStdString(), AttributeValue::Type(type));
    addAttribute(record, output.c_str(), text.toStdString(), AttributeValue::Type(type));
    QCOMPARE(GenAiSemantics::readInputTokens(record), 120);
    QCOMPARE(GenAiSemantics::readOutputTokens(record), 120);
    SpanRecord none;
    addAttribute(none, input.c_str(), "many");
    QCOMPARE(GenAiSemantics::readInputTokens(none), -1);
}

void tst_GenAi::vllmLatencyMapsToPhases()
{
    TraceStore store;
    SpanTraceBuilder builder(store, QStringLiteral("vllm"));
    SpanRecord record;
    span(record, "0000000000000001", "", "llm_request", 0, 2000);
    addAttribute(record, "gen_ai.latency.time_in_queue", "0.25", AttributeValue::Type::Double);
    addAttribute(record, "gen_ai.latency.time_in_model_prefill", "0.125", AttributeValue::Type::Double);
    addAttribute(record, "gen_ai.latency.time_to_first_token", "0.5", AttributeValue::Type::Double);
    addAttribute(record, "gen_ai.latency.time_in_model_decode", "1.4", AttributeValue::Type::Double);
    addAttribute(record, "gen_ai.latency.e2e", "1.95", AttributeValue::Type::Double);
    addAttribute(record, "gen_ai.usage.prompt_tokens", "512", AttributeValue::Type::Int);
    addAttribute(record, "gen_ai.usage.completion_tokens", "64", AttributeValue::Type::Int);
    builder.addSpan(record);
    builder.finish();
    const SpanTable &spans = store.spans;
    QCOMPARE(spans.category(0), SpanCategory::ModelCall);
    const auto *call = spans.modelCall(0);
    QVERIFY(call);
    QCOMPARE(call->stamps[size_t(Stamp::QueueEnter)], kT0);
    QCOMPARE(call->stamps[size_t(Stamp::PrefillStart)], kT0 + 250 * kMs);
    QCOMPARE(call->stamps[size_t(Stamp::PrefillEnd)], kT0 + 375 * kMs);
    QCOMPARE(call->stamps[size_t(Stamp::FirstTokenServer)], kT0 + 500 * kMs);
    QCOMPARE(call->stamps[size_t(Stamp::FirstTokenClient)], kNoTime);
    QCOMPARE(call->lastTokenServer, kT0 + 1950 * kMs);
    QCOMPARE(spans.inputTokens(0), 512);
    QCOMPARE(spans.outputTokens(0), 64);
    // Server stamps only: the workflow row has its queue and prefill, and no client TTFT.
    QCOMPARE(store.requests.stamp(0, Stamp::FirstTokenClient), kNoTime);
}

void tst_GenAi::usageIsNotCountedTwice()
{
    TraceStore store;
    SpanTraceBuilder builder(store, QStringLiteral("usage"));
    SpanRecord record;
    // agent (1000/500 aggregate) ─┬─ chat A 100/10
    //                             ├─ chat B 200/20
    //                             └─ sub-agent (50/5, its calls report nothing) ── tool
    // planner agent (70/7) on its own, another root of the same trace.
    const auto withUsage = [&](const char *id, const char *parent, const char *name, qint64 start, qint64 end,
                               int input, int output) -> const SpanRecord & {
        span(record, id, parent, name, start, end);
        addUsage(record, input, output);
        return record;
    };
    builder.addSpan(withUsage("0000000000000001", "", "invoke_agent main", 0, 100, 1000, 500));
    builder.addSpan(withUsage("0000000000000002", "0000000000000001", "chat a", 1, 10, 100, 10));
    builder.addSpan(withUsage("0000000000000003", "0000000000000001", "chat b", 11, 20, 200, 20));
    builder.addSpan(withUsage("0000000000000004", "0000000000000001", "invoke_agent sub", 21, 40, 50, 5));
    builder.addSpan(span(record, "0000000000000005", "0000000000000004", "execute_tool t", 22, 30));
    builder.addSpan(withUsage("0000000000000006", "", "invoke_agent planner", 50, 60, 70, 7));
    builder.finish();
    const auto usage = WorkflowSummary::tokenUsage(store.spans, 0, 6);
    QCOMPARE(usage.inputTokens, 100 + 200 + 50 + 70);
    QCOMPARE(usage.outputTokens, 10 + 20 + 5 + 7);
    QCOMPARE(store.requests.promptTokens(0), 420);
    QCOMPARE(store.requests.outputTokens(0), 42);
    QCOMPARE(store.workflows.rootSpan[0], 0); // earliest of the two roots
}

void tst_GenAi::firstContentBearingTokenIsTheWorkflowTtft()
{
    TraceStore store;
    SpanTraceBuilder builder(store, QStringLiteral("ttft"));
    SpanRecord record;
    span(record, "0000000000000001", "", "assistant turn", 0, 3000);
    addAttribute(record, "tracelane.workflow.type", "support answer");
    builder.addSpan(record);
    // An internal planning call answers first, but the user never sees it.
    span(record, "0000000000000002", "0000000000000001", "chat planner", 10, 400);
    addAttribute(record, "gen_ai.operation.name", "chat");
    addAttribute(record, "tracelane.content_bearing", "false", AttributeValue::Type::Bool);
    addTimes(record, "tracelane.tokens.client_unix_nano", {150, 160, 170});
    builder.addSpan(record);
    // The visible answer: its first client token is the workflow's TTFT.
    span(record, "0000000000000003", "0000000000000001", "chat answer", 500, 3000);
    addAttribute(record, "gen_ai.operation.name", "chat");
    addAttribute(record, "tracelane.phase.queue_enter_unix_nano", std::to_string(kT0 + 500 * kMs),
                 AttributeValue::Type::Int);
    addAttribute(record, "tracelane.phase.prefill_start_unix_nano", std::to_string(kT0 + 600 * kMs),
                 AttributeValue::Type::Int);
    addTimes(record, "tracelane.tokens.client_unix_nano", {900, 950, 1000, 2990});
    addTimes(record, "tracelane.tokens.server_unix_nano", {880, 930, 980, 2970});
    builder.addSpan(record);
    builder.finish();
    QCOMPARE(store.rejected.size(), size_t(0));
    const RequestTable &requests = store.requests;
    QCOMPARE(requests.stamp(0, Stamp::ClientSend), kT0);
    QCOMPARE(requests.stamp(0, Stamp::QueueEnter), kT0 + 500 * kMs);
    QCOMPARE(requests.stamp(0, Stamp::PrefillStart), kT0 + 600 * kMs);
    QCOMPARE(requests.stamp(0, Stamp::FirstTokenClient), kT0 + 900 * kMs);
    QCOMPARE(requests.stamp(0, Stamp::LastTokenClient), kT0 + 3000 * kMs);
    QCOMPARE(requests.attribute(QStringLiteral("workflow_type"))->text(0), QStringLiteral("support answer"));
    QCOMPARE(requests.attribute(QStringLiteral("model_calls"))->number(0), 2.0);
    // Client tokens of content-bearing calls only; server tokens of every call.
    QCOMPARE(requests.clientTokens().countFor(0), size_t(4));
    QCOMPARE(requests.serverTokens().countFor(0), size_t(4));
    QCOMPARE(requests.clientTokens().firstTime(0), kT0 + 900 * kMs);
}

void tst_GenAi::workflowWithoutTokenTimesHasNoTtft()
{
    TraceStore store;
    SpanTraceBuilder builder(store, QStringLiteral("none"));
    SpanRecord record;
    builder.addSpan(span(record, "0000000000000001", "", "invoke_agent a", 0, 100));
    span(record, "0000000000000002", "0000000000000001", "chat", 10, 90);
    addAttribute(record, "gen_ai.operation.name", "chat");
    builder.addSpan(record);
    builder.finish();
    qint32 producer = 7;
    QCOMPARE(WorkflowSummary::firstContentToken(store.spans, 0, 2, &producer), kNoTime);
    QCOMPARE(producer, -1);
    QCOMPARE(store.requests.stamp(0, Stamp::FirstTokenClient), kNoTime);
    QCOMPARE(store.requests.stamp(0, Stamp::LastTokenClient) - store.requests.stamp(0, Stamp::ClientSend), 100 * kMs);
    QVERIFY(store.requests.clientTokens().isEmpty());
}

void tst_GenAi::backwardsStampIsLeftOutOfTheWorkflowRow()
{
    // A model call whose queue_enter lies before the workflow began (clock
    // skew between hosts) keeps its stamps on the span, but the workflow row
    // leaves that stamp out rather than show a negative phase.
    TraceStore store;
    SpanTraceBuilder builder(store, QStringLiteral("skew"));
    SpanRecord record;
    builder.addSpan(span(record, "0000000000000001", "", "turn", 100, 1000));
    span(record, "0000000000000002", "0000000000000001", "chat", 150, 900);
    addAttribute(record, "gen_ai.operation.name", "chat");
    addAttribute(record, "tracelane.phase.queue_enter_unix_nano", std::to_string(kT0 + 50 * kMs),
                 AttributeValue::Type::Int);
    addAttribute(record, "tracelane.phase.first_token_client_unix_nano", std::to_string(kT0 + 400 * kMs),
                 AttributeValue::Type::Int);
    builder.addSpan(record);
    builder.finish();
    QCOMPARE(store.spans.modelCall(1)->stamps[size_t(Stamp::QueueEnter)], kT0 + 50 * kMs);
    QCOMPARE(store.requests.stamp(0, Stamp::QueueEnter), kNoTime);
    QCOMPARE(store.requests.stamp(0, Stamp::FirstTokenClient), kT0 + 400 * kMs);
}

QTEST_GUILESS_MAIN(tst_GenAi)
#include "tst_genai.moc"
