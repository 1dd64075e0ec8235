/**
 * What a resource's policy answers about the caller: may they create, edit, delete, see a row, and which actions
 * may they take on it now. The generic layer asks every question through here.
 */
import type { WhereOptions } from 'sequelize';
import type { RequestContext } from '../core/context';
import type { Row } from '../core/row';

export interface Policy {
  canCreate: (ctx: RequestContext) => boolean | Promise<boolean>;
  canEdit: (ctx: RequestContext, row: Row) => boolean | Promise<boolean>;
  canDelete: (ctx: RequestContext, row: Row) => boolean | Promise<boolean>;
  /** The `delete` link is left out although the caller may delete (e.g. one's own user: that DELETE answers 422). */
  hideDeleteLink?: (ctx: RequestContext, row: Row) => boolean;
  /** Extra filter on top of tenancy: rows the caller may see (others answer 404). */
  visible?: (ctx: RequestContext) => WhereOptions | undefined | Promise<WhereOptions | undefined>;
  /**
   * Whether the caller sees this row of its tenant, answered from the row: exactly what `visible` selects. With
   * it, a row read with the caller (auth/authenticate) stands without being read again under the scope.
   */
  sees?: (ctx: RequestContext, row: Row) => boolean | Promise<boolean>;
  /**
   * Kinds created under a parent (a stream config under its stream): `GET /auth?action=<TYPE>_CREATE&resourceUid=`
   * names the parent, of `/auth` type `parent`, and asks `allowed` about it (docs/contract.md §7.1).
   */
  canCreateIn?: { parent: string; allowed: (ctx: RequestContext, parent: Row) => boolean | Promise<boolean> };
  /** Links to the actions the caller may take on the row now (a grant's `approve`, `revoke`, …). */
  actionLinks?: (ctx: RequestContext, row: Row, self: string) => Promise<Record<string, unknown>>;
  /** Actions beyond view/create/edit/delete (auth/actions.ts SPECIAL_ACTIONS), e.g. ENVIRONMENT_SYNCHRONIZE. */
  actions?: Partial<Record<string, (ctx: RequestContext, row: Row) => boolean | Promise<boolean>>>;
}
