// The smallest part of ClickHouse's HTTP interface tracelane-cli uses, served
// by libchdb (a current ClickHouse engine in-process, npm `chdb`): POST / with
// the query as the body, or ?query=... with the body as an INSERT's data;
// TabSeparated answers; errors as HTTP 500 with the engine's message. Prints
// "listening PORT" once ready. Loopback only; for tests.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tracelane-chdb-'));
const session = new Session(folder);
const cleanup = () => { try { session.cleanup(); } catch { /* gone */ } fs.rmSync(folder, { recursive: true, force: true }); };
process.on('SIGTERM', () => { cleanup(); process.exit(0); });
process.on('SIGINT', () => { cleanup(); process.exit(0); });

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const url = new URL(request.url, 'http://localhost');
    const body = Buffer.concat(chunks).toString('utf8');
    const inUrl = url.searchParams.get('query');
    let sql = inUrl !== null ? `${inUrl}\n${body}` : body;
    // FORMAT at the end of a SELECT is honoured by the engine; default TabSeparated.
    try {
      const answer = session.query(sql, 'TabSeparated');
      response.writeHead(200, { 'Content-Type': 'text/tab-separated-values; charset=UTF-8' });
      response.end(answer ?? '');
    } catch (error) {
      response.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
      response.end(String(error && error.message ? error.message : error));
    }
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
