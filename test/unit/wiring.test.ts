import { describe, expect, it } from 'vitest';
import { genericOperations } from '../../generated/generic-operations';
import { operations } from '../../generated/operations';
import { handlers } from '../../handlers';
import { clusterResource } from '../../handlers/clusters';
import type { CheckedHandler, Handler } from '../../handlers/_lib/reply';
import { wire } from '../../handlers/_lib/wiring';

const noContent: Handler = () => ({ status: 204 });
const clusterOperations = Object.keys(operations).filter((id) => operations[id as keyof typeof operations].path.startsWith('/clusters'));

describe('wiring', () => {
  it('answers every operation of the spec with a handler, and nothing else', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operations).sort());
    for (const handler of Object.values(handlers)) expect(handler).toBeTypeOf('function');
  });

  it('reads the generic kind of an operation off its path, method and operationId', () => {
    expect(genericOperations.getCluster).toEqual({ collection: 'clusters', kind: 'get' });
    expect(genericOperations.findClustersByName).toEqual({ collection: 'clusters', kind: 'find', search: 'findByName' });
    expect(genericOperations.addStreamAssociationTargets).toEqual({ collection: 'streams', kind: 'addAssociationTargets' });
    expect(genericOperations.deleteGroupAssociationMember).toEqual({ collection: 'groups', kind: 'deleteAssociationMember' });
    // The PUT and DELETE of a grant's item are named otherwise: they are no replace and no delete.
    expect(genericOperations).not.toHaveProperty('approveApplicationAccessGrant');
    expect(genericOperations).not.toHaveProperty('cancelApplicationAccessGrant');
    // Paths outside a collection with an item path `/{collection}/{id}` are never generic.
    expect(genericOperations).not.toHaveProperty('getCurrentTenant');
    expect(genericOperations).not.toHaveProperty('listAuditEvents');
  });

  it('derives every operation of a registered collection from its descriptor', () => {
    const wired = wire([clusterResource], {});
    expect(Object.keys(wired).sort()).toEqual(clusterOperations.sort());
    // The GET of an item keeps the mark that lets authentication read the row alongside the caller.
    expect((wired.getCluster as CheckedHandler).itemModel).toBeTypeOf('function');
  });

  it('lets a handler of its own take the place of a generic one', () => {
    expect(wire([clusterResource], { getCluster: noContent }).getCluster).toBe(noContent);
  });

  it('refuses a search of the spec that neither the descriptor nor a handler of its own answers', () => {
    const searchless = { ...clusterResource, searches: [] };
    expect(() => wire([searchless], {})).toThrow('clusters: the descriptor has no search findByName, and the operation no handler of its own');
    expect(wire([searchless], { findClustersByName: noContent }).findClustersByName).toBe(noContent);
  });

  it('refuses a collection registered twice', () => {
    expect(() => wire([clusterResource, clusterResource], {})).toThrow('clusters is registered twice');
  });
});
