import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffChanges } from '../../scripts/contract-gate';
import { gateVerdict, latestVersion, type DiffChange } from '../../scripts/contract-verdict';

const major: DiffChange = {
  path: '#/paths/~1groups~1search', kind: 'removed', impact: 'major',
  verdicts: [{ ruleId: 'path-removed', impact: 'major', message: 'Path `/groups/search` was removed.' }],
};
const minor: DiffChange = { path: '#/paths/~1groups/get/parameters/3', kind: 'added', impact: 'minor' };

describe('the breaking-change verdict', () => {
  it('passes additive and cosmetic changes', () => {
    const v = gateVerdict('7.0.0', '7.0.0', [minor, { ...minor, impact: 'patch' }]);
    expect(v.ok).toBe(true);
    expect(v.message).toContain('0 major, 1 minor, 1 patch');
  });

  it('fails a breaking change within the same major, naming it and the way out', () => {
    for (const revision of ['7.0.0', '7.1.0', '7.9.9']) {
      const v = gateVerdict('7.0.0', revision, [minor, major]);
      expect(v.ok).toBe(false);
      expect(v.message).toContain('removed #/paths/~1groups~1search: Path `/groups/search` was removed. (path-removed)');
      expect(v.message).toContain('8.0.0');
    }
  });

  it('passes a reviewed major change, and only that exact one', () => {
    const reviewed = new Set(['removed #/paths/~1groups~1search: Path `/groups/search` was removed. (path-removed)']);
    const v = gateVerdict('7.0.0', '7.0.0', [minor, major], reviewed);
    expect(v).toEqual({ ok: true, message: expect.stringContaining('1 major change(s) reviewed as breaking no client') });
    const other = { ...major, path: '#/paths/~1groups' };
    const refused = gateVerdict('7.0.0', '7.0.0', [major, other], reviewed);
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain('removed #/paths/~1groups: Path');
    expect(refused.message).not.toContain('removed #/paths/~1groups~1search');
  });

  it('fails on a reviewed change the diff no longer reports, so the list stays exact', () => {
    const reviewed = new Set(['removed #/paths/~1gone: Path `/gone` was removed. (path-removed)']);
    const v = gateVerdict('7.0.0', '7.0.0', [minor], reviewed);
    expect(v.ok).toBe(false);
    expect(v.message).toContain('no longer reports');
    expect(v.message).toContain('~1gone');
  });

  it('lets a new major version break', () => {
    expect(gateVerdict('7.0.0', '8.0.0', [major]).ok).toBe(true);
  });

  it('picks the highest released version numerically, not by name', () => {
    expect(latestVersion(['7.0.0', '10.0.0', '9.12.1', '9.2.0'])).toBe('10.0.0');
    expect(latestVersion(['7.0.0', '7.0.10', '7.0.9'])).toBe('7.0.10');
    expect(latestVersion([])).toBeUndefined();
    expect(() => latestVersion(['7.0.0', 'latest'])).toThrow(/not a release version/);
  });
});

describe('the diff tool on real documents', () => {
  const released = JSON.parse(readFileSync('openapi/released/7.0.0.json', 'utf8'));
  const dir = mkdtempSync(path.join(tmpdir(), 'pms-gate-test-'));
  const write = (name: string, doc: unknown): string => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };
  const base = write('base.json', released);

  it('rates a removed path and a new required parameter major, and the gate refuses them', async () => {
    const doc = structuredClone(released);
    delete doc.paths['/groups/search'];
    doc.paths['/groups'].get.parameters.push({ name: 'team', in: 'query', required: true, schema: { type: 'string' } });
    const changes = await diffChanges(base, write('breaking.json', doc));
    const rules = changes.filter((c) => c.impact === 'major').flatMap((c) => (c.verdicts ?? []).map((v) => v.ruleId));
    expect(rules).toEqual(expect.arrayContaining(['path-removed', 'parameter-became-required']));
    expect(gateVerdict('7.0.0', doc.info.version, changes).ok).toBe(false);
  }, 60_000);

  it('rates a new optional parameter and a new path as not breaking', async () => {
    const doc = structuredClone(released);
    doc.paths['/groups'].get.parameters.push({ name: 'team', in: 'query', required: false, schema: { type: 'string' } });
    doc.paths['/groups/search/findByTeam'] = structuredClone(doc.paths['/groups/search/findByName']);
    doc.paths['/groups/search/findByTeam'].get.operationId = 'findGroupsByTeam';
    const changes = await diffChanges(base, write('additive.json', doc));
    expect(changes.length).toBeGreaterThan(0);
    expect(gateVerdict('7.0.0', doc.info.version, changes).ok).toBe(true);
  }, 60_000);
});
