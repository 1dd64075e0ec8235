/**
 * The probes an orchestrator or load balancer asks (`application/health+json`, draft-inadarei-api-health-check):
 * liveness reads nothing but the process itself, so a database outage never gets the service restarted; readiness
 * asks the database once, bounded, and fails while the process stops. Their bodies name no host, secret or tenant:
 * a failing check says why in words of its own, never in a driver's message (which may name a host).
 */
import type { components } from '../generated/types';
import type { Deps } from '../core/context';
import { probeDatabase } from '../models/database-probe';
import type { Handler, Reply } from './_lib/reply';

type Health = components['schemas']['Health'];
type Check = components['schemas']['HealthCheck'];
type Checks = Health['checks'];

/** How long readiness waits for the database: well inside the one second an orchestrator's probe allows by default. */
export const READINESS_BOUND_MS = 500;

const HEALTH_JSON = 'application/health+json';
const DESCRIPTION = 'platform-management-service';

export const getLiveness: Handler = () => report(liveness());
export const getReadiness: Handler = async (ctx) => report(await readiness(ctx.deps));
export const getHealth: Handler = async (ctx) => report({ ...liveness(), ...(await readiness(ctx.deps)) });

function report(checks: Checks): Reply {
  const pass = Object.values(checks).every((list) => list?.every((c) => c.status === 'pass'));
  const body: Health = { status: pass ? 'pass' : 'fail', description: DESCRIPTION, checks };
  return { status: pass ? 200 : 503, body, contentType: HEALTH_JSON, headers: { 'Cache-Control': 'no-store' } };
}

const check = (componentType: Check['componentType'], pass: boolean, observation: Partial<Check>): Check[] =>
  [{ componentType, status: pass ? 'pass' : 'fail', time: new Date().toISOString(), ...observation }];

function liveness(): Checks {
  return { uptime: check('system', true, { observedValue: Math.round(process.uptime() * 10) / 10, observedUnit: 's' }) };
}

async function readiness(deps: Deps): Promise<Checks> {
  // A stopping process is not ready whatever its database says, and its pool may already be closing.
  if (deps.health.stopping()) return { shutdown: check('system', false, { observedValue: true, output: 'the service is stopping' }) };
  const probe = await probeDatabase(deps.models.sequelize, READINESS_BOUND_MS);
  const shutdown = check('system', true, { observedValue: false });
  if (!probe.answered) {
    const why = probe.reason === 'timeout' ? `no answer within ${READINESS_BOUND_MS} ms` : 'the database refused the statement';
    return {
      database: check('datastore', false, { observedValue: probe.ms, observedUnit: 'ms', output: why }),
      migrations: check('datastore', false, { output: 'not read: the database did not answer' }),
      shutdown,
    };
  }
  const wanted = deps.health.newestMigration;
  const applied = probe.newestApplied;
  // A database migrated past this build, by a newer version in a rolling deploy, counts as migrated: failing there
  // would take every old process out of service before the new ones have taken over.
  const migrated = applied !== null && applied >= wanted;
  return {
    database: check('datastore', true, { observedValue: probe.ms, observedUnit: 'ms' }),
    migrations: check('datastore', migrated, {
      ...(applied === null ? {} : { observedValue: applied }),
      ...(migrated ? {} : { output: `this build needs migration ${wanted}` }),
    }),
    shutdown,
  };
}
