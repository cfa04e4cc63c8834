// DuckDB's answer to one of tracelane-cli's questions, from the seed JSONL file,
// printed as JSON for tests/benchmarks/bench_duckdb.py to compare.
//
//   node duckdb_figures.mjs FILE analyse|slice|exceed [THREADS]
//   node duckdb_figures.mjs FILE recompute [THREADS] [REPEATS]
//
// `recompute` loads the file into a table in memory first (every column, as
// the GUI keeps every attribute), then times the slice question on that
// table REPEATS times and prints the median in milliseconds: the in-memory
// side of bench_duckdb.py --recompute.
//
// Times are read as DECIMAL(18,3) (the generator writes three decimals), so a
// difference of two stamps is exact, as tracelane's integer nanoseconds are;
// quantile_cont interpolates at rank (n-1)q, the seed profiler's definition.

import { DuckDBInstance } from '@duckdb/node-api';

const [file, question, threads = '2', repeats = '9'] = process.argv.slice(2);
if (!file || !['analyse', 'slice', 'exceed', 'recompute'].includes(question)) {
    console.error('usage: node duckdb_figures.mjs FILE analyse|slice|exceed|recompute [THREADS] [REPEATS]');
    process.exit(2);
}

const stamps = ['client_send_ms', 'gateway_arrival_ms', 'queue_enter_ms', 'prefill_start_ms', 'prefill_end_ms',
                'first_token_server_ms', 'first_token_client_ms', 'last_token_client_ms'];
const phases = ['network_in', 'gateway', 'queue', 'prefill', 'first_decode', 'network_to_first'];
const categories = ['region', 'priority', 'cached_prefix', 'workload_class'];
const columns = {request_id: 'VARCHAR', prompt_tokens: 'BIGINT', output_tokens: 'BIGINT'};
for (const stamp of stamps)
    columns[stamp] = 'DECIMAL(18,3)';
Object.assign(columns, {region: 'VARCHAR', priority: 'VARCHAR', cached_prefix: 'BOOLEAN', workload_class: 'VARCHAR'});
const quote = (text) => `'${text.replaceAll("'", "''")}'`;
const columnSpec = '{' + Object.entries(columns).map(([name, type]) => `${name}: ${quote(type)}`).join(', ') + '}';
const source = `read_json(${quote(file)}, format = 'newline_delimited', columns = ${columnSpec})`;
const ttft = '(first_token_client_ms - client_send_ms)::DOUBLE';
const e2e = '(last_token_client_ms - client_send_ms)::DOUBLE';

const instance = await DuckDBInstance.create(':memory:', {threads: String(threads)});
const connection = await instance.connect();
const rows = async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson();
const number = (value) => (value === null ? null : Number(value));

let figures;
if (question === 'recompute') {
    await connection.run(`CREATE TEMP TABLE requests AS SELECT * FROM ${source}`);
    const times = [];
    let regions = 0;
    for (let i = 0; i < Number(repeats); ++i) {
        const began = process.hrtime.bigint();
        const result = await rows(`SELECT region, count(*) AS n,
            quantile_cont(${ttft}, [0.5, 0.9, 0.95, 0.99]) AS q FROM requests GROUP BY region ORDER BY region`);
        times.push(Number(process.hrtime.bigint() - began) / 1e6);
        regions = result.length;
    }
    times.sort((a, b) => a - b);
    figures = {ms: times[Math.floor(times.length / 2)], regions};
} else if (question === 'analyse') {
    const [row] = await rows(`SELECT count(*) AS n,
        quantile_cont(${ttft}, 0.5) AS p50_ttft, quantile_cont(${ttft}, 0.95) AS p95_ttft,
        quantile_cont(${e2e}, 0.5) AS p50_e2e, quantile_cont(${e2e}, 0.95) AS p95_e2e FROM ${source}`);
    figures = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, number(value)]));
} else if (question === 'slice') {
    const result = await rows(`SELECT region, count(*) AS n,
        quantile_cont(${ttft}, [0.5, 0.9, 0.95, 0.99]) AS q FROM ${source} GROUP BY region ORDER BY region`);
    figures = {regions: Object.fromEntries(result.map((row) => [row.region, {
        n: number(row.n), p50: number(row.q[0]), p90: number(row.q[1]), p95: number(row.q[2]), p99: number(row.q[3])}]))};
} else {
    // The set above the overall p95 TTFT against the rest: sizes, phase means, category shares.
    // Only the columns the question needs are kept in memory.
    const phaseColumns = phases.map((phase, i) => `${stamps[i + 1]} - ${stamps[i]} AS ${phase}`).join(', ');
    await connection.run(`CREATE TEMP TABLE requests AS SELECT ${ttft} AS ttft, ${phaseColumns},
        ${categories.join(', ')} FROM ${source}`);
    await connection.run(`CREATE TEMP TABLE cut AS SELECT quantile_cont(ttft, 0.95) AS threshold FROM requests`);
    await connection.run(`CREATE TEMP TABLE marked AS SELECT requests.* EXCLUDE (ttft), ttft > threshold AS in_set
        FROM requests, cut`);
    const [{threshold}] = await rows('SELECT threshold FROM cut');
    const means = phases.map((phase) => `avg(${phase})::DOUBLE AS ${phase}`).join(', ');
    const groups = await rows(`SELECT in_set, count(*) AS n, ${means} FROM marked GROUP BY in_set`);
    figures = {threshold: number(threshold), set: {}, rest: {}};
    for (const group of groups) {
        const side = group.in_set ? figures.set : figures.rest;
        side.n = number(group.n);
        side.phase_means = Object.fromEntries(phases.map((phase) => [phase, number(group[phase])]));
        side.shares = {};
    }
    const shareSql = categories.map((category) =>
        `SELECT ${quote(category)} AS feature, ${category}::VARCHAR AS value, in_set, count(*) AS n FROM marked GROUP BY ALL`);
    for (const row of await rows(shareSql.join(' UNION ALL '))) {
        const side = row.in_set ? figures.set : figures.rest;
        (side.shares[row.feature] ??= {})[row.value] = number(row.n) / side.n;
    }
}
console.log(JSON.stringify(figures));
