/**
 * What the graph operations may show the caller (core/rules/graph.ts applies it): the kinds it sees whole through
 * its roles, and its groups for the Private rows it owns or views and the grants it may read.
 */
import type { RequestContext } from '../../core/context';
import type { Sight } from '../../core/rules/graph';
import { groupsOf, hasRole } from '../permissions';
import { APPLICATION_ADMIN } from './application';
import { ENVIRONMENT_ADMIN } from './environment';
import { STREAM_ADMIN } from './stream';

export async function graphSight(ctx: RequestContext): Promise<Sight> {
  const sight = {
    allStreams: hasRole(ctx, STREAM_ADMIN),
    allApplications: hasRole(ctx, APPLICATION_ADMIN),
    allEnvironments: hasRole(ctx, ENVIRONMENT_ADMIN),
    allGrants: hasRole(ctx, APPLICATION_ADMIN, STREAM_ADMIN),
  };
  // Who sees everything needs no groups: no statement for them.
  const whole = sight.allStreams && sight.allApplications && sight.allEnvironments && sight.allGrants;
  return { ...sight, groups: whole ? new Set<string>() : await groupsOf(ctx) };
}
