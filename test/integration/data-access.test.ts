/**
 * The data access (models/data-access) answers every read with the rows Sequelize's own findOne and findAll answer
 * — the same values, types and instances — on whichever database runs the suite; and its statements, built once,
 * are built per model and per list of associations, so two resources may share a model.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OptimisticLockError, UniqueConstraintError, type Model, type ModelStatic, type Transaction } from 'sequelize';
import { resources } from '../../handlers/resources';
import { dialectOf } from '../../models/db';
import type { RelatedWanted } from '../../models/data-access';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, startWithTenant, type TestApp, type TestTenant } from '../support/app';

const postgres = dialectOf(inject('databaseUrl')) === 'postgres';
let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let w: AccessWorld;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('dacc'));
  other = await createTenant(app, 'dacco');
  w = await accessWorld(app, t, 'da');
}, 120_000);
afterAll(async () => app?.stop());

const tenantModels = () => [...new Set(resources.map((r) => r.model(app.models)))].filter((m) => 'tenantUid' in m.getAttributes()) as ModelStatic<Model>[];

/** An instance as findAll builds it from these values, for comparing the whole instance (class, state, options). */
const built = (model: ModelStatic<Model>, found: Model) => model.build({ ...found.dataValues }, { raw: true, isNewRecord: false });

describe('reads by uid answer what findOne and findAll answer', () => {
  it('readByUid: every resource\'s rows, the same instance findOne reads; another tenant\'s uid is null', async () => {
    let compared = 0;
    for (const model of tenantModels()) {
      for (const found of await model.findAll({ where: { tenantUid: t.tenant.uid }, limit: 3 })) {
        const uid = found.get('uid') as string;
        const read = await app.models.data.readByUid(model, uid, t.tenant.uid);
        expect(read, model.name).toStrictEqual(built(model, found));
        for (const [key, value] of Object.entries(found.get({ plain: true }))) expect(typeof read!.get(key), `${model.name}.${key}`).toBe(typeof value);
        expect(await app.models.data.readByUid(model, uid, other.tenant.uid), model.name).toBeNull();
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(20);
  });

  it('readByUids: the rows of the uids given, each as findAll reads it; unknown uids are left out', async () => {
    const model = app.models.Group as ModelStatic<Model>;
    const found = await model.findAll({ where: { tenantUid: t.tenant.uid } });
    expect(found.length).toBeGreaterThanOrEqual(2);
    const read = await app.models.data.readByUids(model, [...found.map((g) => g.get('uid') as string), 'f'.repeat(32)]);
    const byUid = new Map(read.map((r) => [r.get('uid'), r]));
    expect(read).toHaveLength(found.length);
    for (const g of found) expect(byUid.get(g.get('uid')), String(g.get('uid'))).toStrictEqual(built(model, g));
    expect(await app.models.data.readByUids(model, [])).toEqual([]);
  });

  it('readLinked: a stream\'s viewers in link order, each target one instance however many sources link it', async () => {
    const { Stream, StreamViewer, Group } = app.models as unknown as Record<string, ModelStatic<Model>>;
    const groups = await Group.findAll({ where: { tenantUid: t.tenant.uid }, order: [['uid', 'ASC']], limit: 2 });
    const streams = (await Stream.findAll({ where: { tenantUid: t.tenant.uid }, order: [['uid', 'ASC']], limit: 2 })).map((s) => s.get('uid') as string);
    expect(streams).toHaveLength(2);
    for (const sourceUid of streams) {
      await StreamViewer.destroy({ where: { sourceUid } });
      // Positions against the groups' own order: the link order must win.
      await StreamViewer.bulkCreate(groups.map((g, i) => ({ sourceUid, targetUid: g.get('uid'), position: groups.length - i })));
    }
    const links = await app.models.data.readLinked(StreamViewer, Group, streams);
    expect(links).toHaveLength(4);
    for (const s of streams) expect(links.filter((l) => l.sourceUid === s).map((l) => l.target.get('uid'))).toEqual([...groups].reverse().map((g) => g.get('uid')));
    const [a, b] = streams.map((s) => links.find((l) => l.sourceUid === s)!.target);
    expect(a).toBe(b);
    for (const l of links) expect(l.target).toStrictEqual(built(Group, groups.find((g) => g.get('uid') === l.target.get('uid'))!));
  });
});

describe('readOwned: what groups own, per kind, in one statement', () => {
  it('answers for each model the uids findAll finds by tenant and owners, and nothing of another tenant', async () => {
    const { Application, Stream, Environment } = app.models;
    const models = [Application, Stream, Environment] as ModelStatic<Model>[];
    const groups = (await app.models.Group.findAll({ where: { tenantUid: t.tenant.uid } })).map((g) => g.uid as string);
    expect(groups.length).toBeGreaterThan(1);
    const read = await app.models.data.readOwned(models, t.tenant.uid, groups.slice(0, 2));
    const expected = await Promise.all(models.map(async (m) => (await m.findAll({ where: { tenantUid: t.tenant.uid, ownersUid: groups.slice(0, 2) } })).map((r) => r.get('uid') as string)));
    expect(read.map((uids) => [...uids].sort())).toEqual(expected.map((uids) => [...uids].sort()));
    expect(read.flat().length).toBeGreaterThan(0);
    expect(await app.models.data.readOwned(models, other.tenant.uid, groups)).toEqual([[], [], []]);
    expect(await app.models.data.readOwned(models, t.tenant.uid, [])).toEqual([[], [], []]);
  });
});

describe('readCaller: the tenant, its user and the item a GET names, in one statement', () => {
  const viewersOnly = (): RelatedWanted[] => [{ rel: 'viewers', target: app.models.Group as ModelStatic<Model>, join: app.models.StreamViewer as unknown as ModelStatic<Model> }];
  const ownersOnly = (): RelatedWanted[] => [{ rel: 'owners', target: app.models.Group as ModelStatic<Model>, attribute: 'ownersUid' }];

  it('reads the tenant, the user and the row as findOne does; a row of another tenant is null', async () => {
    const stream = (await app.models.Stream.findByPk(w.stream.uid))!;
    const caller = (await app.models.data.readCaller(t.shortName, t.admin.user.uid, { model: app.models.Stream as ModelStatic<Model>, uid: w.stream.uid }))!;
    expect(caller.tenant.get({ plain: true })).toEqual((await app.models.Tenant.findByPk(t.tenant.uid))!.get({ plain: true }));
    expect(caller.user!.get('roles')).toEqual(['TENANT_ADMIN']);
    expect(caller.item).toStrictEqual(built(app.models.Stream as ModelStatic<Model>, stream));
    const foreign = await app.models.data.readCaller(other.shortName, other.admin.user.uid, { model: app.models.Stream as ModelStatic<Model>, uid: w.stream.uid });
    expect(foreign!.item).toBeNull();
    expect(await app.models.data.readCaller('no-such-realm', t.admin.user.uid)).toBeNull();
  });

  it('one model read for two lists of associations: each read answers its own list (PostgreSQL reads targets with the row)', async () => {
    const Stream = app.models.Stream as ModelStatic<Model>;
    const first = await app.models.data.readCaller(t.shortName, t.admin.user.uid, { model: Stream, uid: w.stream.uid, related: ownersOnly() });
    const second = await app.models.data.readCaller(t.shortName, t.admin.user.uid, { model: Stream, uid: w.stream.uid, related: viewersOnly() });
    if (!postgres) {
      expect([first!.related, second!.related]).toEqual([undefined, undefined]);
      return;
    }
    expect([...first!.related!.keys()]).toEqual(['owners']);
    expect(first!.related!.get('owners')!.map((g) => g.get('uid'))).toEqual([w.streamTeam.uid]);
    expect([...second!.related!.keys()]).toEqual(['viewers']);
  });

  it('readPage: one model paged for two lists of associations, each page with its own targets (PostgreSQL)', async () => {
    const Stream = app.models.Stream as ModelStatic<Model>;
    const page = (related: RelatedWanted[]) => app.models.data.readPage(Stream, { tenantUid: t.tenant.uid }, [['uid', 'ASC']], 5, 0, related);
    const [owners, viewers] = [await page(ownersOnly()), await page(viewersOnly())];
    expect(owners.rows.map((r) => r.get('uid'))).toEqual((await Stream.findAll({ where: { tenantUid: t.tenant.uid }, order: [['uid', 'ASC']], limit: 5 })).map((r) => r.get('uid')));
    if (!postgres) {
      expect([owners.targets, viewers.targets]).toEqual([undefined, undefined]);
      return;
    }
    for (const targets of owners.targets!.values()) expect([...targets.keys()]).toEqual(['owners']);
    for (const targets of viewers.targets!.values()) expect([...targets.keys()]).toEqual(['viewers']);
  });
});

describe('row writes store what save and destroy store (models/row-writes-pg on PostgreSQL, Sequelize elsewhere)', () => {
  const Cluster = () => app.models.Cluster as ModelStatic<Model>;
  const inTransaction = <T>(work: (transaction: Transaction) => Promise<T>) => app.models.sequelize.transaction(work);
  const fresh = (name: string) => Cluster().build({ tenantUid: t.tenant.uid, name, bootstrapServers: ['rw:9092'], createdBy: 'rw@test', modifiedBy: 'rw@test' });

  it('insert: the row as findOne reads it back, with its timestamps, version 0 and its lowercase twin', async () => {
    const before = Date.now();
    const row = await inTransaction((tx) => app.models.data.insert(fresh('Row-Writes-A'), tx));
    const found = (await Cluster().findOne({ where: { uid: row.get('uid') } }))!;
    // Every value read back (save on MySQL leaves an attribute nothing was given for out; PostgreSQL's holds null).
    for (const [key, value] of Object.entries(found.get({ plain: true }))) expect(row.get(key) ?? null, key).toEqual(value);
    expect(found.get('nameKey')).toBe('row-writes-a');
    expect(found.get('version')).toBe(0);
    expect((found.get('createdAt') as Date).getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(row.isNewRecord).toBe(false);
    expect(row.changed()).toBe(false);
  });

  it('update: only what changed, modifiedAt and version + 1; nothing when nothing changed; a row changed since it was read fails with OptimisticLockError', async () => {
    const row = await inTransaction((tx) => app.models.data.insert(fresh('Row-Writes-B'), tx));
    const stale = (await Cluster().findOne({ where: { uid: row.get('uid') } }))!;
    row.set({ name: 'Row-Writes-B2', location: 'Utrecht' });
    await inTransaction((tx) => app.models.data.update(row, tx));
    const found = (await Cluster().findOne({ where: { uid: row.get('uid') } }))!;
    expect(found.get('name')).toBe('Row-Writes-B2');
    expect(found.get('nameKey')).toBe('row-writes-b2');
    expect(found.get('location')).toBe('Utrecht');
    expect(found.get('version')).toBe(1);
    expect(row.get('version')).toBe(1);
    expect(row.changed()).toBe(false);
    const statements: string[] = [];
    const record = (_o: unknown, q: unknown) => { statements.push(String((q as { sql?: unknown }).sql)); };
    app.models.sequelize.addHook('afterQuery', 'rw-count', record);
    try {
      await inTransaction((tx) => app.models.data.update(row, tx));
    } finally {
      app.models.sequelize.removeHook('afterQuery', 'rw-count');
    }
    expect(statements.filter((s) => /^UPDATE/i.test(s))).toEqual([]);
    stale.set({ location: 'Delft' });
    await expect(inTransaction((tx) => app.models.data.update(stale, tx))).rejects.toBeInstanceOf(OptimisticLockError);
    expect((await Cluster().findOne({ where: { uid: row.get('uid') } }))!.get('location')).toBe('Utrecht');
  });

  it('destroy: the row as read (its uid and version) is gone', async () => {
    const row = await inTransaction((tx) => app.models.data.insert(fresh('Row-Writes-C'), tx));
    await inTransaction((tx) => app.models.data.destroy(row, tx));
    expect(await Cluster().findOne({ where: { uid: row.get('uid') } })).toBeNull();
  });

  it('a unique clash: the plain insert fails with UniqueConstraintError; insertUnlessClash (PostgreSQL only) answers null and the transaction goes on', async () => {
    await inTransaction((tx) => app.models.data.insert(fresh('Row-Writes-D'), tx));
    await expect(inTransaction((tx) => app.models.data.insert(fresh('row-writes-d'), tx))).rejects.toBeInstanceOf(UniqueConstraintError);
    if (!postgres) {
      expect(app.models.data.insertUnlessClash).toBeUndefined();
      return;
    }
    const after = await inTransaction(async (tx) => {
      expect(await app.models.data.insertUnlessClash!(fresh('ROW-WRITES-D'), tx)).toBeNull();
      return app.models.data.insert(fresh('Row-Writes-E'), tx);
    });
    expect(await Cluster().findOne({ where: { uid: after.get('uid') } })).not.toBeNull();
    expect(await Cluster().count({ where: { tenantUid: t.tenant.uid, nameKey: 'row-writes-d' } })).toBe(1);
  });

  it('insertStored: rows of stored values as given, in one statement', async () => {
    const { GroupMember } = app.models as unknown as Record<string, ModelStatic<Model>>;
    const group = (await app.models.Group.findOne({ where: { tenantUid: t.tenant.uid } }))!;
    const users = await app.models.User.findAll({ where: { tenantUid: t.tenant.uid }, limit: 2 });
    await GroupMember.destroy({ where: { sourceUid: group.get('uid') } });
    await inTransaction((tx) => app.models.data.insertStored(GroupMember, users.map((u, position) => ({ sourceUid: group.get('uid'), targetUid: u.get('uid'), position })), tx));
    const links = await GroupMember.findAll({ where: { sourceUid: group.get('uid') }, order: [['position', 'ASC']] });
    expect(links.map((l) => [l.get('targetUid'), l.get('position')])).toEqual(users.map((u, i) => [u.get('uid'), i]));
  });
});
