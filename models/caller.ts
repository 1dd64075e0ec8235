/**
 * What the caller's read takes and answers (the data access's readCaller): what every authenticated request needs
 * (the tenant of its realm and its user with a given uid, read fresh each time, so a deleted or demoted user is
 * refused at once on every instance) and, for a GET of one item, that row within the same tenant, in the same
 * statement: one round trip, not two. Its tables are joined by models/select-sql callerFrom; each data-access
 * implementation selects and decodes its own way.
 */
import type { Model, ModelStatic } from 'sequelize';
import type { Row } from './define';
import type { RelatedWanted } from './select-sql';

export type { CallerModels, RelatedWanted } from './select-sql';

/** The row a request will read: its model and uid, and the associations it will render. */
export interface ItemWanted { model: ModelStatic<Model>; uid: string; related?: RelatedWanted[] }

/**
 * `item`: present when one was asked for; null when no row of that uid is in the caller's tenant. `related`: per
 * association asked for, the targets read in the same round trip (to-many in link order), when they could be.
 */
export interface Caller { tenant: Row; user: Row | null; item?: Row | null; related?: Map<string, Row[]> }
