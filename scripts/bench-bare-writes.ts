/**
 * The write routes of bench-bare.ts: what a hand-written Express + pg app does for the service's writes, row for row.
 * Each route is one transaction holding the row(s) and the audit entry the service writes beside them (the same
 * columns, equivalent values, a JSON `details` of the same shape), and answers the row as JSON. No auth, no
 * validation, no HAL: the caller names its tenant and itself in headers (x-tenant-uid, x-tenant, x-actor,
 * x-actor-name), as a front proxy that has already authenticated it would.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express, type Request } from 'express';
import type pg from 'pg';

const uid = () => randomUUID().replaceAll('-', '');

interface Who { tenantUid: string; tenant: string; actor: string; actorName: string }
interface Entry { action: string; resourceType: string; resourceName: string; resourceId: string; details: Record<string, unknown> }

const who = (req: Request): Who => ({
  tenantUid: String(req.headers['x-tenant-uid']), tenant: String(req.headers['x-tenant']),
  actor: String(req.headers['x-actor']), actorName: String(req.headers['x-actor-name']),
});

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

function audit(client: pg.PoolClient, w: Who, at: Date, e: Entry) {
  return client.query(
    `INSERT INTO audit_events (uid, tenant_uid, timestamp, action, actor, actor_name, tenant, resource_type, resource_name, resource_id, actor_key, resource_name_key, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [uid(), w.tenantUid, at, e.action, w.actor, w.actorName, w.tenant, e.resourceType, e.resourceName, e.resourceId, w.actor.toLowerCase(), e.resourceName.toLowerCase(), JSON.stringify(e.details)],
  );
}

/** Drops the columns a statement joined in for the audit entry: the reply is the written row. */
function rowOnly(row: Record<string, unknown>, joined: string[]) {
  const out = { ...row };
  for (const k of joined) delete out[k];
  return out;
}

export function writeRoutes(app: Express, pool: pg.Pool): void {
  const json = express.json();

  app.post('/clusters', json, async (req, res) => {
    const w = who(req);
    const at = new Date();
    const b = req.body as { name: string; bootstrapServers: string[]; schemaRegistryUrls?: string[] };
    const schemaRegistryUrls = b.schemaRegistryUrls ?? [];
    const row = await inTransaction(pool, async (client) => {
      const { rows: [r] } = await client.query(
        `INSERT INTO clusters (uid, tenant_uid, created_by, modified_by, created_at, modified_at, name, name_key, bootstrap_servers, schema_registry_urls, provider_type, version)
         VALUES ($1, $2, $3, $3, $4, $4, $5, $6, $7, $8, 'APACHE_KAFKA', 0) RETURNING *`,
        [uid(), w.tenantUid, w.actor, at, b.name, b.name.toLowerCase(), JSON.stringify(b.bootstrapServers), JSON.stringify(schemaRegistryUrls)],
      );
      await audit(client, w, at, {
        action: 'CREATED', resourceType: 'Cluster', resourceName: r.name, resourceId: r.uid,
        details: { name: r.name, description: null, location: null, bootstrapServers: b.bootstrapServers, schemaRegistryUrls, providerType: r.provider_type, apiUrl: null },
      });
      return r;
    });
    res.status(201).json(row);
  });

  app.post('/streams', json, async (req, res) => {
    const w = who(req);
    const at = new Date();
    const b = req.body as { name: string; keyType: string; valueType: string; owners: string };
    const row = await inTransaction(pool, async (client) => {
      const { rows: [r] } = await client.query(
        `INSERT INTO streams (uid, tenant_uid, created_by, modified_by, created_at, modified_at, name, name_key, key_type, value_type, retention_policy, visibility, owners_uid, properties, version)
         VALUES ($1, $2, $3, $3, $4, $4, $5, $6, $7, $8, 'delete', 'Public', $9, '{}', 0) RETURNING *`,
        [uid(), w.tenantUid, w.actor, at, b.name, b.name.toLowerCase(), b.keyType, b.valueType, b.owners],
      );
      await audit(client, w, at, {
        action: 'CREATED', resourceType: 'Topic', resourceName: r.name, resourceId: r.uid,
        details: {
          name: r.name, description: null, keyType: r.key_type, valueType: r.value_type, retentionPolicy: r.retention_policy, visibility: r.visibility,
          properties: {}, keySchema: null, valueSchema: null, owners: r.owners_uid, viewers: [], confidentiality: null, integrity: null,
        },
      });
      return r;
    });
    res.status(201).json(row);
  });

  // The version bump is what the service's optimistic lock (ETag / If-Match) compares.
  app.patch('/streams/:uid', json, async (req, res) => {
    const w = who(req);
    const at = new Date();
    const description = (req.body as { description: string }).description;
    const row = await inTransaction(pool, async (client) => {
      const { rows: [r] } = await client.query(
        `WITH old AS (SELECT uid, description FROM streams WHERE uid = $1 FOR UPDATE)
         UPDATE streams s SET description = $2, modified_by = $3, modified_at = $4, version = s.version + 1 FROM old WHERE s.uid = old.uid
         RETURNING s.*, old.description AS old_description`,
        [req.params.uid, description, w.actor, at],
      );
      if (r) await audit(client, w, at, { action: 'UPDATED', resourceType: 'Topic', resourceName: r.name, resourceId: r.uid, details: { description: { old: r.old_description, new: description } } });
      return r;
    });
    if (!row) res.status(404).json({ message: 'not found' });
    else res.json(rowOnly(row, ['old_description']));
  });

  // Approval is a compare-and-set: of two racing decisions exactly one finds the grant still Pending.
  app.put('/application_access_grants/:uid', json, async (req, res) => {
    const w = who(req);
    const at = new Date();
    const row = await inTransaction(pool, async (client) => {
      const { rows: [r] } = await client.query(
        `UPDATE application_access_grants g SET status = 'Approved', processed_by = $2, processed_at = $3, modified_by = $2, modified_at = $3, version = g.version + 1
         FROM applications a, streams s, environments e
         WHERE g.uid = $1 AND g.status = 'Pending' AND (g.expires_at IS NULL OR g.expires_at > $3)
           AND a.uid = g.application_uid AND s.uid = g.stream_uid AND e.uid = g.environment_uid
         RETURNING g.*, a.short_name AS application_name, s.name AS stream_name, e.short_name AS environment_name`,
        [req.params.uid, w.actor, at],
      );
      if (r) {
        await audit(client, w, at, {
          action: 'APPLICATION_ACCESS_APPROVED', resourceType: 'Application', resourceName: r.application_name, resourceId: r.application_uid,
          details: { grant: r.uid, stream: r.stream_name, environment: r.environment_name, accessType: r.access_type, status: { old: 'Pending', new: 'Approved' } },
        });
      }
      return r;
    });
    if (!row) res.status(409).json({ message: 'not pending' });
    else res.json(rowOnly(row, ['application_name', 'stream_name', 'environment_name']));
  });

  app.delete('/stream_configs/:uid', async (req, res) => {
    const w = who(req);
    const at = new Date();
    const row = await inTransaction(pool, async (client) => {
      const { rows: [r] } = await client.query(
        `DELETE FROM stream_configs c USING streams s, environments e WHERE c.uid = $1 AND s.uid = c.stream_uid AND e.uid = c.environment_uid
         RETURNING c.uid, c.stream_uid, s.name AS stream_name, e.short_name AS environment_name`,
        [req.params.uid],
      );
      if (r) await audit(client, w, at, { action: 'TOPIC_UNCONFIGURED', resourceType: 'Topic', resourceName: r.stream_name, resourceId: r.stream_uid, details: { environment: r.environment_name, streamConfig: r.uid } });
      return r;
    });
    if (!row) res.status(404).json({ message: 'not found' });
    else res.status(204).end();
  });
}
