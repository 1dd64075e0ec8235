/**
 * PostgreSQL reads the caller, an item and its targets as one JSON column (models/data-access-pg textColumns and
 * linkedJson): every model's row must decode from it exactly as Sequelize reads it, and every to-many association
 * of every resource to exactly the rows its own statement (readLinked) reads — every column, its type (dates as
 * dates, booleans, numbers), nulls and link order.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryTypes, type Model, type ModelStatic } from 'sequelize';
import { resources } from '../../handlers/resources';
import { dialectOf } from '../../models/db';
import { columnOf, tableOf } from '../../models/select-sql';
import { linkedJson, pgTypeOid, textColumns } from '../../models/data-access-pg';
import { accessWorld } from '../support/access-world';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';

const postgres = dialectOf(inject('databaseUrl')) === 'postgres';
let app: TestApp;
let t: TestTenant;

beforeAll(async () => {
  if (!postgres) return;
  app = await startTestApp();
  t = await createTenant(app, 'ljson');
  await accessWorld(app, t, 'lj');
  // More targets of each kind than a link list needs: users with and without a middle name, groups, clusters.
  await createUser(app, t, ['STREAM_AUTHOR'], 'lj-extra');
  for (const name of ['lj-g1', 'lj-g2']) {
    expect((await call(app, 'POST', '/groups', { token: t.admin.token, body: { name, emailAddress: `${name}@example.com` } })).status).toBe(201);
  }
  for (const name of ['lj-c1', 'lj-c2']) {
    expect((await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name, bootstrapServers: [`${name}:9092`] } })).status).toBe(201);
  }
}, 120_000);
afterAll(async () => app?.stop());

/** The row of `model` with this uid, read as its JSON column (textColumns) and decoded. */
async function decodeRow(model: ModelStatic<Model>, uid: string): Promise<Model | null> {
  const columns = textColumns(model, 'r');
  const [row] = await app.models.sequelize.query<{ c: string }>(`SELECT ${columns.array}::text AS c FROM ${tableOf(model)} r WHERE r.${columnOf(model, 'uid')} = ?`, { replacements: [uid], type: QueryTypes.SELECT });
  return columns.decode(JSON.parse(row.c));
}

const toMany = resources.flatMap((resource) => resource.associations.filter((a) => a.many && a.join).map((assoc) => ({ resource, assoc })));

describe.skipIf(!postgres)('rows and to-many targets read as a JSON column (PostgreSQL)', () => {
  it('every attribute of every model has a PostgreSQL type to parse its text with', () => {
    const models = Object.values(app.models).filter((m): m is ModelStatic<Model> => typeof m === 'function' && 'getAttributes' in m);
    expect(models.length).toBeGreaterThanOrEqual(20);
    for (const model of models) for (const attribute of Object.keys(model.getAttributes())) expect(() => pgTypeOid(model, attribute)).not.toThrow();
  });

  it('every resource\'s rows (and the tenant and user rows) decode as Sequelize reads them', async () => {
    let compared = 0;
    for (const model of [...new Set([app.models.Tenant, ...resources.map((r) => r.model(app.models))])] as ModelStatic<Model>[]) {
      const tenancy = 'tenantUid' in model.getAttributes() ? { tenantUid: t.tenant.uid } : { uid: t.tenant.uid };
      const rows = await model.findAll({ where: tenancy, limit: 5 });
      for (const expected of rows) {
        const instance = (await decodeRow(model, expected.get('uid') as string))!;
        const decoded = instance.get({ plain: true });
        expect(decoded, model.name).toEqual(expected.get({ plain: true }));
        // The instance itself is the one build makes of these values (its class, state and options), not a look-alike.
        expect(instance, model.name).toStrictEqual(model.build({ ...expected.dataValues }, { raw: true, isNewRecord: false }));
        for (const [key, value] of Object.entries(expected.get({ plain: true }))) expect(typeof decoded[key], `${model.name}.${key}`).toBe(typeof value);
        compared += 1;
      }
    }
    // Most resources have rows in this tenant (the world holds applications, streams, configs, grants, …).
    expect(compared).toBeGreaterThanOrEqual(30);
  });

  it('a decoded row is a working instance: a change is tracked, saved under optimistic locking, and read back', async () => {
    const model = app.models.Stream as ModelStatic<Model>;
    const uid = (await model.findOne({ where: { tenantUid: t.tenant.uid } }))!.get('uid') as string;
    const row = (await decodeRow(model, uid))!;
    const stale = (await decodeRow(model, uid))!;
    expect(row.changed()).toBe(false);
    row.set('description', 'changed through a decoded row');
    expect(row.changed()).toEqual(['description']);
    await row.save();
    const saved = await model.findByPk(uid);
    expect(saved!.get('description')).toBe('changed through a decoded row');
    expect(saved!.get('version')).toBe((stale.get('version') as number) + 1);
    // The other decoded copy still holds the old version: its save must lose, as a findOne'd one would.
    stale.set('description', 'a lost update');
    await expect(stale.save()).rejects.toThrow(/stale/i);
  });

  it('covers several to-many associations', () => {
    expect(toMany.length).toBeGreaterThanOrEqual(6);
  });

  for (const { resource, assoc } of toMany) {
    it(`${resource.collection}.${assoc.rel}: the same rows, types and order as the association's own statement`, async () => {
      const models = app.models;
      const model = resource.model(models) as ModelStatic<Model>;
      const target = assoc.target().model(models) as ModelStatic<Model>;
      const join = models[assoc.join!] as unknown as ModelStatic<Model>;
      const source = await model.findOne({ where: { tenantUid: t.tenant.uid } });
      const targets = await target.findAll({ where: { tenantUid: t.tenant.uid }, limit: 3 });
      expect(source, `a ${resource.collection} row in the tenant`).not.toBeNull();
      expect(targets.length, `targets of ${assoc.rel}`).toBeGreaterThanOrEqual(2);
      const sourceUid = source!.get('uid') as string;
      await join.destroy({ where: { sourceUid } });
      // Positions against the targets' own order: the link order must win.
      await join.bulkCreate(targets.map((x, i) => ({ sourceUid, targetUid: x.get('uid'), position: targets.length - i })));

      const json = linkedJson(join, target, `r.${columnOf(model, 'uid')}`);
      const read = async (uid: string) => {
        const [row] = await models.sequelize.query<{ m: unknown }>(`SELECT ${json.select} AS m FROM ${tableOf(model)} r WHERE r.${columnOf(model, 'uid')} = ?`, { replacements: [uid], type: QueryTypes.SELECT });
        return json.decode(row.m).map((x) => x.get({ plain: true }));
      };
      const expected = (await models.data.readLinked(join, target, [sourceUid])).map((l) => l.target.get({ plain: true }));
      expect(expected.map((x) => x.uid)).toEqual([...targets].reverse().map((x) => x.get('uid')));
      const decoded = await read(sourceUid);
      expect(decoded).toEqual(expected);
      // toEqual compares dates by value; their type must be a date too, as the driver gives it.
      for (const [i, row] of decoded.entries()) {
        for (const [key, value] of Object.entries(expected[i])) expect(typeof row[key], `${assoc.rel}.${key}`).toBe(typeof value);
      }

      await join.destroy({ where: { sourceUid } });
      expect(await read(sourceUid)).toEqual([]);
    });
  }
});
