import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSOCIATION_OPERATIONS, expandAssociations, loadSpec, operationsOf } from '../../scripts/spec-source';

const TEMPLATE_FILE = path.join('openapi', 'templates', 'associations.yaml');
const template = yaml.load(readFileSync(TEMPLATE_FILE, 'utf8')) as Record<string, any>;
const base = {
  tag: 'Environments',
  noun: 'Environment',
  rels: 'The association: `instance` (to-one, required, immutable), `owners` (to-one, required, groups) or `viewers` (to-many, groups).',
};
const expand = (spec: Record<string, unknown>, key = '/environments/{id}/{rel}', where = 'paths/environments.yaml: /environments/{id}/{rel}') =>
  expandAssociations(key, { 'x-associations': { ...base, ...spec } }, where, template);
const methods = (item: Record<string, any> | undefined) =>
  Object.keys(item ?? {}).filter((k) => ['get', 'put', 'post', 'patch', 'delete'].includes(k));

describe('x-associations', () => {
  it('expands to all seven operations by default, on both paths', () => {
    const paths = expand({});
    expect(Object.keys(paths)).toEqual(['/environments/{id}/{rel}', '/environments/{id}/{rel}/{propertyId}']);
    const ops = operationsOf({ paths });
    expect(ops.map((o) => `${o.method} ${o.path} ${o.operationId} ${o.tag}`)).toEqual([
      'get /environments/{id}/{rel} getEnvironmentAssociation Environments',
      'put /environments/{id}/{rel} replaceEnvironmentAssociation Environments',
      'post /environments/{id}/{rel} addEnvironmentAssociationTargets Environments',
      'patch /environments/{id}/{rel} patchEnvironmentAssociation Environments',
      'delete /environments/{id}/{rel} deleteEnvironmentAssociation Environments',
      'get /environments/{id}/{rel}/{propertyId} getEnvironmentAssociationMember Environments',
      'delete /environments/{id}/{rel}/{propertyId} deleteEnvironmentAssociationMember Environments',
    ]);
    expect(ops).toHaveLength(Object.keys(ASSOCIATION_OPERATIONS).length);
  });

  it('fills the texts: rel parameter, article, example target URIs', () => {
    const paths = expand({});
    const item = paths['/environments/{id}/{rel}'];
    const rel = item.parameters.find((p: any) => p.name === 'rel');
    expect(rel).toMatchObject({ in: 'path', required: true, description: base.rels, example: 'instance' });
    expect(item.get.summary).toBe('Read an association of an environment');
    expect(item.put.requestBody.content['text/uri-list'].example).toBe('https://portal.example.com/api/environments/0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f');
    expect(paths['/environments/{id}/{rel}/{propertyId}'].parameters.map((p: any) => p.$ref ?? p.name))
      .toEqual(['#/components/parameters/id', 'rel', '#/components/parameters/propertyId']);
    expect(JSON.stringify(paths)).not.toContain('${');

    const other = expand({ noun: 'StreamConfig', tag: 'Stream configs', example: 'stream', target: 'schema_versions' }, '/stream_configs/{id}/{rel}');
    const sc = other['/stream_configs/{id}/{rel}'];
    expect(sc.get.summary).toBe('Read an association of a stream config');
    expect(sc.get.tags).toEqual(['Stream configs']);
    expect(sc.parameters[1].example).toBe('stream');
    expect(sc.get.responses['200'].content['text/uri-list'].example).toMatch(/\/api\/schema_versions\//);
    expect(expand({ name: 'the environment' })['/environments/{id}/{rel}'].get.summary).toBe('Read an association of the environment');
  });

  it('expands only the listed operations; no member path without a member operation', () => {
    const paths = expand({ operations: ['get', 'patch'] });
    expect(Object.keys(paths)).toEqual(['/environments/{id}/{rel}']);
    expect(methods(paths['/environments/{id}/{rel}'])).toEqual(['get', 'patch']);
  });

  it('gives the member path only the member operations listed', () => {
    const paths = expand({ operations: ['get', 'deleteMember'] });
    expect(methods(paths['/environments/{id}/{rel}'])).toEqual(['get']);
    expect(methods(paths['/environments/{id}/{rel}/{propertyId}'])).toEqual(['delete']);
    const memberOnly = expand({ operations: ['getMember'] });
    expect(Object.keys(memberOnly)).toEqual(['/environments/{id}/{rel}/{propertyId}']);
  });

  it('applies overrides as a JSON merge patch to one operation only', () => {
    const paths = expand({
      operations: ['get', 'put'],
      overrides: {
        get: {
          summary: 'Read the ${tag} link',
          responses: { '200': { content: { 'application/hal+json': { schema: { $ref: null, anyOf: [{ $ref: '#/components/schemas/Stream' }] } } } } },
        },
      },
    });
    const item = paths['/environments/{id}/{rel}'];
    expect(item.get.summary).toBe('Read the Environments link');
    expect(item.get.responses['200'].content['application/hal+json'].schema).toEqual({ anyOf: [{ $ref: '#/components/schemas/Stream' }] });
    expect(item.get.responses['200'].content['text/uri-list']).toBeDefined();
    expect(item.get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(item.put.summary).toBe('Replace an association of an environment');
    expect(template.association.get.summary).toBe('Read an association of ${a_noun}'); // the template is left alone
  });

  it('names the file and path on an unknown operation', () => {
    expect(() => expand({ operations: ['get', 'getMembers'] }))
      .toThrow("paths/environments.yaml: /environments/{id}/{rel}: x-associations: unknown operation 'getMembers' (expected one of get, put, post, patch, delete, getMember, deleteMember)");
  });

  it('rejects other mistakes with the file and path', () => {
    const where = /^paths\/environments\.yaml: \/environments\/\{id\}\/\{rel\}: x-associations: /;
    expect(() => expand({ tag: undefined })).toThrow(where);
    expect(() => expand({ tag: undefined })).toThrow("'tag' is required");
    expect(() => expand({ noun: 'environment' })).toThrow('PascalCase');
    expect(() => expand({ operation: ['get'] })).toThrow("unknown key(s) operation");
    expect(() => expand({ operations: [] })).toThrow(where);
    expect(() => expand({ operations: ['get', 'get'] })).toThrow('twice');
    expect(() => expand({ operations: ['get'], overrides: { put: { summary: 'x' } } })).toThrow("'overrides' names 'put'");
    expect(() => expand({ rels: 'no names here' })).toThrow("give 'example'");
    expect(() => expand({}, '/environments/{id}/links')).toThrow("must end in '/{id}/{rel}'");
    expect(() => expandAssociations('/environments/{id}/{rel}', { 'x-associations': base, get: {} }, 'f.yaml: p', template))
      .toThrow('f.yaml: p: x-associations: the path item may hold nothing else (found get)');
  });
});

describe('loadSpec with x-associations', () => {
  const roots: string[] = [];
  afterAll(() => { for (const r of roots) rmSync(r, { recursive: true, force: true }); });
  const root = (files: Record<string, string>) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'spec-source-'));
    roots.push(dir);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    return dir;
  };
  const templates = { 'templates/associations.yaml': readFileSync(TEMPLATE_FILE, 'utf8') };
  const openapi = { 'openapi.yaml': 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\n', 'schemas/none.yaml': '{}\n' };

  it('expands in place, keeping the order of the file', () => {
    const dir = root({
      ...openapi, ...templates,
      'paths/things.yaml': [
        '/things: { get: { operationId: listThings } }',
        '/things/{id}/{rel}:',
        '  x-associations: { tag: Things, noun: Thing, rels: "`parts` (to-many)", operations: [get, getMember] }',
        '/things/{id}: { get: { operationId: getThing } }',
      ].join('\n'),
    });
    expect(Object.keys(loadSpec(dir).paths)).toEqual(['/things', '/things/{id}/{rel}', '/things/{id}/{rel}/{propertyId}', '/things/{id}']);
  });

  it('reports an expansion that collides with a written path', () => {
    const dir = root({
      ...openapi, ...templates,
      'paths/things.yaml': [
        '/things/{id}/{rel}/{propertyId}: { get: { operationId: x } }',
        '/things/{id}/{rel}:',
        '  x-associations: { tag: Things, noun: Thing, rels: "`parts`" }',
      ].join('\n'),
    });
    expect(() => loadSpec(dir)).toThrow(/things\.yaml: '\/things\/\{id\}\/\{rel\}\/\{propertyId\}' is defined twice/);
  });

  it('names the file and path of a bad x-associations', () => {
    const dir = root({ ...openapi, ...templates, 'paths/things.yaml': '/things/{id}/{rel}:\n  x-associations: { tag: T, noun: Thing, rels: "`a`", operations: [list] }\n' });
    expect(() => loadSpec(dir)).toThrow(`${path.join(dir, 'paths', 'things.yaml')}: /things/{id}/{rel}: x-associations: unknown operation 'list'`);
  });

  it('the spec writes each association block once, and expands to the operations each resource has', () => {
    const doc = loadSpec();
    const at = (p: string) => methods(doc.paths[p]);
    expect(at('/environments/{id}/{rel}')).toEqual(['get', 'put', 'post', 'patch', 'delete']);
    expect(at('/environments/{id}/{rel}/{propertyId}')).toEqual(['get', 'delete']);
    expect(at('/schema_versions/{id}/{rel}')).toEqual(['get']);
    expect(doc.paths['/schema_versions/{id}/{rel}/{propertyId}']).toBeUndefined();
    expect(at('/stream_configs/{id}/{rel}')).toEqual(['get', 'put', 'patch', 'delete']);
    expect(doc.paths['/schemas/{id}/{rel}/{propertyId}']).toBeUndefined();
    expect(JSON.stringify(doc)).not.toMatch(/x-associations|\$\{/);
  });
});
