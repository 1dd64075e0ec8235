/** The values the document lists for a parameter are the ones the service takes (docs/contract.md §3.5, §5.15, §8). */
import { describe, expect, it } from 'vitest';
import { spec } from '../../core/spec';
import { resources } from '../../handlers/resources';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES } from '../../models/audit-actions';
import { DEPLOYMENT_ACTIONS } from '../../core/rules/deployment-state';
import { GRANT_STATUSES } from '../../core/rules/grant-state';

type Parameter = { name: string; in: string; schema: Record<string, any> };
const parameter = (path: string, name: string, method?: string): Parameter => {
  const item = spec.paths[path];
  const all: Parameter[] = [...(item.parameters ?? []), ...(method ? item[method].parameters ?? [] : [])];
  const found = all.find((p) => p.name === name)!;
  expect(found, `${path} ${name}`).toBeDefined();
  return found;
};

describe('enums of the document and the service', () => {
  const associationPaths = Object.keys(spec.paths).filter((p) => p.endsWith('/{id}/{rel}'));

  it.each(associationPaths)('%s: rel lists the associations of the resource', (path) => {
    const resource = resources.find((r) => `/${r.collection}/{id}/{rel}` === path);
    expect(resource, path).toBeDefined();
    expect([...parameter(path, 'rel').schema.enum].sort()).toEqual(resource!.associations.map((a) => a.rel).sort());
    const member = spec.paths[`${path}/{propertyId}`];
    if (member) expect(member.parameters.find((p: Parameter) => p.name === 'rel').schema.enum).toEqual(parameter(path, 'rel').schema.enum);
  });

  it('every resource with associations has its association paths', () => {
    const withAssociations = resources.filter((r) => r.associations.length > 0).map((r) => `/${r.collection}/{id}/{rel}`);
    expect(associationPaths.sort()).toEqual(withAssociations.sort());
  });

  it('audit history: action and resourceType (Stream meaning Topic)', () => {
    expect(parameter('/audit-history', 'action', 'get').schema.enum).toEqual([...AUDIT_ACTIONS]);
    expect([...parameter('/audit-history', 'resourceType', 'get').schema.enum].sort()).toEqual([...AUDIT_RESOURCE_TYPES, 'Stream'].sort());
  });

  it('deployment operation action', () => {
    expect(parameter('/application_deployments/{id}/operation', 'action', 'put').schema.enum).toEqual([...DEPLOYMENT_ACTIONS]);
  });

  it('grant search: accessType and statuses', () => {
    const path = '/application_access_grants/search/findByAttributes';
    expect(parameter(path, 'accessType', 'get').schema.$ref).toBe('#/components/schemas/AccessType');
    expect(spec.components.schemas.AccessType.enum).toEqual(['CONSUMER', 'PRODUCER']);
    expect(parameter(path, 'statuses', 'get').schema.items.$ref).toBe('#/components/schemas/GrantStatus');
    expect(spec.components.schemas.GrantStatus.enum).toEqual([...GRANT_STATUSES]);
  });
});
