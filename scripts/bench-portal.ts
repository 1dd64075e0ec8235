/**
 * The bench's browser scenario (issue 43): the portal in Debian's chromium against the API at npm start's defaults,
 * in a database of its own beside the bench's with 100,000 streams (BENCH_PORTAL_STREAMS) and 10,000 Pending access
 * requests in the tenant. The pages a person opens most: My work (the inbox of decisions, 10,000 waiting), a stream's
 * page (its environments tab) and the streams catalog (its first page, and a name search that matches one stream).
 * Each is opened BENCH_PORTAL_RUNS times as a new page load, as a person opens a link.
 *
 * Time to content: from the moment the address is opened to the content on screen, by the browser's own clock
 * (`performance.timeOrigin + performance.now()` once the content is there, less the first document's
 * navigationStart from Navigation Timing): it includes the round trip to the issuer that a new page load makes
 * (tokens live in memory only, so a load signs in again through the issuer's session), the page's JavaScript and
 * every API call before the content. Also per load: the API requests made before the content, and the longest chain
 * of them that waited for one another (the waterfall's depth, from Resource Timing).
 */
import type { Page } from 'playwright-core';
import type { Sequelize } from 'sequelize';
import type { Api } from './bench-api';
import { createFixtures, pendingGrants } from './bench-fixtures';
import { median } from './bench-pairs';
import { seededName, seedStreams } from './bench-seed';
import { siblingTarget, stopTargets } from './bench-sizes';
import { chromiumProblem, launchChromium } from './chromium';

const STREAMS = Number(process.env.BENCH_PORTAL_STREAMS || 100_000);
const PENDING = 10_000;
const RUNS = Number(process.env.BENCH_PORTAL_RUNS || 10);

export interface PortalRow { page: string; content: string; ms: number[]; apiRequests: number[]; depth: number[] }
export interface PortalOutcome { rows: PortalRow[]; pending: number; skipped?: string }

interface Load { ms: number; apiRequests: number; depth: number; requests: { path: string; start: number; end: number }[] }

/**
 * The longest chain of requests each of which started only after the one before it had its answer: 1 when every
 * request went out at once, 2 when a second wave needed the first's answers.
 */
export function waterfallDepth(requests: { start: number; end: number }[]): number {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j].end <= sorted[i].start) before = Math.max(before, depth[j]);
    depth[i] = before + 1;
  }
  return Math.max(0, ...depth);
}

/** Opens `url` as a new page load and waits for `content`; what the browser measured. */
async function load(page: Page, url: string, content: (page: Page) => Promise<void>): Promise<Load> {
  await page.goto('about:blank');
  const opened = Date.now();
  await page.goto(url);
  try {
    await content(page);
  } catch (err) {
    throw new Error(`${url}: ${(err as Error).message.split('\n')[0]}; at ${page.url()} the page says: ${(await page.innerText('body').catch(() => '')).slice(0, 400)}`);
  }
  const measured = await page.evaluate(() => {
    const at = performance.timeOrigin + performance.now();
    const api = performance.getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname.startsWith('/api/'))
      .map((e) => ({ path: new URL(e.name).pathname + new URL(e.name).search, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd }));
    return { at, api };
  });
  // The issuer's redirect and the return are documents of their own: the wall clock from opening the address spans
  // them; the browser's clock at the content ends it (same machine, same clock).
  return { ms: measured.at - opened, apiRequests: measured.api.length, depth: waterfallDepth(measured.api), requests: measured.api };
}

export async function portalBench(main: { url: string; sequelize: Sequelize; dataDir: string }, api: (origin: string) => Api, log: (text: string) => void): Promise<PortalOutcome> {
  const problem = chromiumProblem();
  if (problem) return { rows: [], pending: 0, skipped: problem };
  log(`\nthe portal in chromium (${STREAMS} streams, ${PENDING} pending requests, the API at npm start's defaults):`);
  const target = await siblingTarget(main, 'portal', STREAMS, api, { defaults: true });
  const browser = await launchChromium();
  try {
    const fixtures = await createFixtures(target.api, target.models);
    await seedStreams(target.models, fixtures.seed, STREAMS);
    const waiting = await target.models.ApplicationAccessGrant.count({ where: { tenantUid: target.tenantUid, status: 'Pending' } });
    if (waiting < PENDING) await pendingGrants(target.api, target.models, fixtures, PENDING - waiting);
    const pending = await target.models.ApplicationAccessGrant.count({ where: { tenantUid: target.tenantUid, status: 'Pending' } });
    const requested = await target.models.ApplicationAccessGrant.findOne({ where: { tenantUid: target.tenantUid, status: 'Pending' }, order: [['createdAt', 'DESC']] });
    const stream = await target.models.Stream.findByPk(requested!.streamUid as string);
    const environment = await target.models.Environment.findByPk(fixtures.environmentUid);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The address npm start prints (its public URL names localhost): the sign-in returns there.
    const origin = target.server.origin.replace('127.0.0.1', 'localhost');
    await page.goto(`${origin}/?tenant=${encodeURIComponent(target.api.tenant)}`);
    try {
      await page.getByLabel('Email').fill(target.api.email);
      await page.getByLabel('Password').fill(target.api.password);
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 60_000 });
    } catch (err) {
      throw new Error(`signing in to the portal at ${page.url()}: ${(err as Error).message.split('\n')[0]}; the page says: ${(await page.innerText('body').catch(() => '')).slice(0, 300)}`);
    }

    const scenarios: { page: string; content: string; url: string; wait: (p: Page) => Promise<void> }[] = [
      {
        page: 'My work (inbox)', content: 'the count of requests waiting for my decision and the first of them', url: `${origin}/`,
        wait: async (p) => {
          const inbox = p.getByRole('region', { name: /^Waiting for my decision/ });
          await inbox.getByRole('heading', { name: /^Waiting for my decision \(\d/ }).waitFor({ timeout: 60_000 });
          await inbox.getByRole('listitem').first().waitFor({ timeout: 60_000 });
        },
      },
      {
        page: "A stream's page (environments)", content: 'its config and access requests in the environment', url: `${origin}/streams/${stream!.uid}?tab=environments`,
        wait: async (p) => {
          const env = p.getByRole('region', { name: environment!.name as string });
          await env.getByText(stream!.name as string).first().waitFor({ timeout: 60_000 });
          await env.getByRole('listitem').first().waitFor({ timeout: 60_000 });
        },
      },
    ];
    // A text in one stream's name only: the catalog's search reads past every other name to find it.
    const rare = seededName(Math.floor(STREAMS * 0.77)).slice('bench-'.length);
    scenarios.push(
      {
        page: 'Streams catalog', content: 'the first page by name', url: `${origin}/streams`,
        wait: async (p) => { await p.getByRole('table', { name: /^Streams, / }).getByRole('link').first().waitFor({ timeout: 60_000 }); },
      },
      {
        page: 'Streams catalog, name contains', content: `the one stream whose name has "${rare}"`, url: `${origin}/streams?q=${encodeURIComponent(rare)}`,
        wait: async (p) => { await p.getByRole('table', { name: /^Streams, 1 in all/ }).getByRole('link', { name: new RegExp(rare) }).waitFor({ timeout: 60_000 }); },
      },
    );
    const rows: PortalRow[] = [];
    for (const s of scenarios) {
      log(`  ${s.page}…`);
      // Two loads first, not counted: the browser's cache of the hashed assets is warm, as a returning person's is.
      for (let i = 0; i < 2; i++) await load(page, s.url, s.wait);
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await load(page, s.url, s.wait));
      rows.push({ page: s.page, content: s.content, ms: loads.map((l) => l.ms), apiRequests: loads.map((l) => l.apiRequests), depth: loads.map((l) => l.depth) });
      // The load with the longest chain, request by request: what waited on what.
      const deepest = loads.reduce((a, b) => (b.depth > a.depth ? b : a));
      log(`    median ${median(loads.map((l) => l.ms)).toFixed(0)} ms; chains ${loads.map((l) => l.depth).join(', ')}; the deepest load's API requests (ms from its document's start):`);
      for (const r of deepest.requests) log(`      ${r.start.toFixed(0)}–${r.end.toFixed(0)} ${r.path.slice(0, 120)}`);
    }
    return { rows, pending };
  } finally {
    await browser.close();
    await stopTargets([target]);
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

/** The scenario's table for the bench's report. */
export function portalTable(o: PortalOutcome): string {
  if (o.skipped) return `The portal in chromium: skipped, ${o.skipped}.`;
  return [
    `The portal in chromium, ${o.pending} pending requests in the tenant, ${RUNS} new page loads each after two not counted (time to content includes the sign-in round trip through the issuer's session):`,
    '',
    '| page | content | time to content p50 ms | p90 ms | API requests before content | longest chain of API requests, median (most) |',
    '|---|---|--:|--:|--:|--:|',
    ...o.rows.map((r) => `| ${r.page} | ${r.content} | ${median(r.ms).toFixed(0)} | ${percentile(r.ms, 90).toFixed(0)} | ${median(r.apiRequests)} | ${median(r.depth)} (${Math.max(...r.depth)}) |`),
  ].join('\n');
}
