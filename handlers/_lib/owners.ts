/** The owners rule every owned kind shares (docs/contract.md §7): a write may only hand a row to a group the caller may assign. */
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { ForbiddenError } from '../../core/errors';

export async function checkOwnersChange(ctx: RequestContext, values: Record<string, unknown>, row: Row | undefined,
  mayAssign: (ctx: RequestContext, ownersUid: string) => Promise<boolean>, admin: string): Promise<void> {
  const owners = values.ownersUid as string | null | undefined;
  if (owners === undefined || owners === null || owners === row?.ownersUid) return;
  if (!(await mayAssign(ctx, owners))) throw new ForbiddenError(`You must belong to the new owners group (or be ${admin})`);
}
