/**
 * Issue 30: `/metrics` of `npm start` with WORKERS=2 is the sum of both workers. On the API port the worker that
 * takes the scrape asks the primary, which collects from every worker; with METRICS_PORT the primary serves the sum
 * on that port and the API port has no /metrics.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/embedded-postgres';
import { parseMetrics, valueOf, type Sample } from '../support/metrics';
import { npmStart, type NpmStart } from '../support/npm-start';
import { createRunDatabase } from '../support/run-database';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** `npm start` with two workers on a fresh database, once the primary has announced that every worker listens. */
async function start(tenant: string, env: Record<string, string>): Promise<{ base: string }> {
  const database = await createRunDatabase(inject('databaseUrl'));
  cleanups.push(database.drop);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-metrics-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const service: NpmStart = npmStart({ DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), BOOTSTRAP_TENANT: tenant, WORKERS: '2', ...env });
  cleanups.push(service.stop);
  await service.printed(`Created tenant '${tenant}'`);
  return { base: `http://127.0.0.1:${port}` };
}

/** One GET; `agent` false opens a connection of its own, which the cluster hands to the next worker in turn. */
function get(url: string, agent: http.Agent | false): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await get(url, false);
  expect(res.status, res.text).toBe(200);
  return parseMetrics(res.text);
}

const infoCount = (samples: Sample[]) => valueOf(samples, 'http_server_request_duration_seconds_count', { operation: 'getInfo', method: 'GET', status_class: '2xx' });

describe('npm start, WORKERS=2', () => {
  it('/metrics on the API port: whichever worker takes the scrape answers the sum of both', async () => {
    const service = await start('mcluster', {});
    const before = await scrape(`${service.base}/metrics`);
    // Twelve requests on one kept-alive connection: one worker serves them all.
    const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 12; i++) expect((await get(`${service.base}/api/info`, one)).status).toBe(200);
    one.destroy();
    // Each scrape on a new connection: consecutive ones land on different workers, and each counts all twelve.
    for (let i = 0; i < 4; i++) {
      const after = await scrape(`${service.base}/metrics`);
      expect(infoCount(after) - infoCount(before)).toBe(12);
      expect(valueOf(after, 'http_server_requests_in_flight')).toBe(1);
      expect(after.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    }
  }, 180_000);

  it('METRICS_PORT: the primary serves the sum there; the API port has no /metrics', async () => {
    const metricsPort = await freePort();
    const service = await start('mport', { METRICS_PORT: String(metricsPort) });
    const onApiPort = await get(`${service.base}/metrics`, false);
    expect(onApiPort.status).toBe(404);
    expect(JSON.parse(onApiPort.text)).toMatchObject({ status: 'NOT_FOUND' });

    const before = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    // Each on a new connection: the cluster spreads them over both workers.
    for (let i = 0; i < 10; i++) expect((await get(`${service.base}/api/info`, false)).status).toBe(200);
    const after = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(infoCount(after) - infoCount(before)).toBe(10);
    expect(valueOf(after, 'http_server_requests_in_flight')).toBe(0);
    expect(valueOf(after, 'db_pool_connections', { state: 'used' })).toBe(0);
    expect((await get(`http://127.0.0.1:${metricsPort}/api/info`, false)).status).toBe(404);
  }, 180_000);
});
