// Sends vLLM-shaped llm_request spans and agent workflows to an OTLP
// endpoint through the real OpenTelemetry JS exporters (OTLP/HTTP JSON or
// protobuf, OTLP/gRPC),
// and writes the same spans as one OTLP/JSON document (the SDK's own
// serializer) so a test can compare what arrived with what was sent.
//
//   node emit.mjs --endpoint URL --protocol json|proto|grpc --out FILE.json
//                 [--requests N] [--workflows M] [--seed S] [--token T]
// (for grpc the URL is http://HOST:PORT; --token sends `authorization: Bearer T`)
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { writeFileSync } from 'node:fs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, word, i, all) => {
  if (word.startsWith('--')) pairs.push([word.slice(2), all[i + 1]]);
  return pairs;
}, []));
const protocol = args.protocol ?? 'json';
const requests = Number(args.requests ?? 40);
const workflows = Number(args.workflows ?? 10);
let state = Number(args.seed ?? 1) >>> 0;
const random = () => {   // mulberry32: the same spans for the same seed
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

function provider(service) {
  let remote;
  if (protocol === 'grpc') {
    const metadata = new Metadata();
    if (args.token) metadata.set('authorization', `Bearer ${args.token}`);
    remote = new GrpcExporter({ url: args.endpoint, timeoutMillis: 10000, metadata });
  } else {
    const Exporter = protocol === 'proto' ? ProtoExporter : JsonExporter;
    const headers = args.token ? { Authorization: `Bearer ${args.token}` } : {};
    remote = new Exporter({ url: args.endpoint, timeoutMillis: 10000, headers });
  }
  const memory = new InMemorySpanExporter();
  const p = new BasicTracerProvider({
    resource: new Resource({ 'service.name': service }),
    spanProcessors: [
      new BatchSpanProcessor(remote, { maxExportBatchSize: 50, scheduledDelayMillis: 20, maxQueueSize: 100000 }),
      new SimpleSpanProcessor(memory),
    ],
  });
  return { p, memory, tracer: p.getTracer('tracelane-live-test', '1.0.0') };
}

const base = Date.now() - 120000;
const vllm = provider('vllm');
for (let i = 0; i < requests; ++i) {
  const start = base + i * 250;
  const queue = 0.005 + random() * (i % 7 === 0 ? 0.8 : 0.05);
  const prefill = 0.02 + random() * 0.1;
  const decode = 0.3 + random() * 1.5;
  const ttft = queue + prefill + 0.01;
  const e2e = queue + prefill + decode;
  const span = vllm.tracer.startSpan('llm_request', {
    kind: SpanKind.SERVER,
    startTime: start,
    attributes: {
      'gen_ai.request.id': `cmpl-${i}`,
      'gen_ai.response.model': 'meta-llama/Llama-3.1-8B-Instruct',
      'gen_ai.usage.prompt_tokens': 100 + Math.floor(random() * 4000),
      'gen_ai.usage.completion_tokens': 20 + Math.floor(random() * 400),
      'gen_ai.latency.time_in_queue': queue,
      'gen_ai.latency.time_to_first_token': ttft,
      'gen_ai.latency.e2e': e2e,
      'gen_ai.latency.time_in_model_prefill': prefill,
      'gen_ai.latency.time_in_model_decode': decode,
      'gen_ai.latency.time_in_model_inference': prefill + decode,
    },
  }, ROOT_CONTEXT);
  span.end(start + e2e * 1000);
}

const agent = provider('adviser-agent');
for (let w = 0; w < workflows; ++w) {
  let t = base + 500 + w * 7000;
  const root = agent.tracer.startSpan('invoke_agent adviser', {
    kind: SpanKind.INTERNAL, startTime: t, attributes: { 'gen_ai.operation.name': 'invoke_agent' },
  }, ROOT_CONTEXT);
  const inRoot = trace.setSpan(ROOT_CONTEXT, root);
  const step = (name, ms, attributes, kind = SpanKind.CLIENT) => {
    const span = agent.tracer.startSpan(name, { kind, startTime: t, attributes }, inRoot);
    t += ms;
    span.end(t);
    t += 5;
  };
  step('retrieval policies', 200 + random() * 300, { 'gen_ai.operation.name': 'retrieval' });
  step('chat gpt-4o', 800 + random() * 900,
       { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 1200, 'gen_ai.usage.output_tokens': 18 });
  step('execute_tool lookup_account', 300 + random() * 800, { 'gen_ai.operation.name': 'execute_tool' });
  step('chat gpt-4o', 1500 + random() * 2000,
       { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 1500, 'gen_ai.usage.output_tokens': 110 });
  root.end(t);
}

await vllm.p.forceFlush();
await agent.p.forceFlush();
const spans = [...vllm.memory.getFinishedSpans(), ...agent.memory.getFinishedSpans()];
await vllm.p.shutdown();
await agent.p.shutdown();
writeFileSync(args.out, Buffer.from(JsonTraceSerializer.serializeRequest(spans)));
console.log(JSON.stringify({ protocol, spans: spans.length }));
