/**
 * Issue 30: SIGTERM stops `npm start` cleanly. 32 sign-ins (each hashes a password, one per core at a time, so most
 * of them wait) are in flight when the signal comes: every one is answered 2xx, new connections are refused, and
 * the process exits 0, as one process and as a cluster of workers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { gone, send, signIn, startService, waitFor, type Answer, type Service } from '../support/service-process';

const services: Service[] = [];
afterAll(async () => { for (const s of services) await s.cleanUp(); });

const refused = (port: number) => send(port, 'GET', '/api/health/liveness').then(() => false, (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED');

describe.each([1, 2])('SIGTERM with WORKERS=%i', (workers) => {
  it('answers the 32 requests in flight, refuses new connections, exits 0', async () => {
    const service = await startService(`stop-${workers}`, workers);
    services.push(service);
    const all = [service.primary, ...service.workers()];

    let sent = 0;
    let answered = 0;
    const inFlight: Promise<Answer>[] = Array.from({ length: 32 }, () => signIn(service, () => { sent += 1; }).finally(() => { answered += 1; }));
    await waitFor('32 requests sent', () => sent === 32);
    // Connections are accepted in the order they arrive: once one opened after the 32 is answered, the service holds
    // all 32 (none waits in the listener's queue, which the stop closes).
    expect((await send(service.port, 'GET', '/api/health/liveness')).status).toBe(200);
    expect(answered, 'the stop must find requests in flight').toBeLessThan(32);

    process.kill(service.primary, 'SIGTERM');
    await waitFor('new connections refused', () => refused(service.port), 30, service.output);

    const answers = await Promise.allSettled(inFlight);
    const statuses = answers.map((a) => (a.status === 'fulfilled' ? a.value.status : String(a.reason)));
    expect(statuses.filter((s) => typeof s !== 'number' || s < 200 || s > 299), service.output()).toEqual([]);
    expect(await service.exited).toBe(0);
    expect(await gone(all)).toEqual([]);
  }, 180_000);
});
