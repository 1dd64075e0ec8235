/**
 * `*_CREATE` answers for kinds whose resources arrive in later issues (streams, schemas, applications and what hangs
 * off them): the role part of CONTRACT §7, which is all that can be asked before such a resource exists. When a kind
 * gets its descriptor, its policy's canCreate replaces the entry here.
 */
import type { RequestContext } from '../../handlers/_lib/context';
import type { ResourceType } from '../actions';
import { hasRole } from '../permissions';

const application = (ctx: RequestContext) => hasRole(ctx, 'APPLICATION_AUTHOR', 'APPLICATION_ADMIN');

export const createByRole: Partial<Record<ResourceType, (ctx: RequestContext) => boolean>> = {
  APPLICATION_DEPLOYMENT: application,
};
