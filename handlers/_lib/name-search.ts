/**
 * "Name contains", the catalog search every named collection offers the portal: the visible rows whose name contains
 * the text, ignoring case, LIKE's own characters matched as themselves (core/rules/name-search).
 */
import { Op } from 'sequelize';
import { containsPattern } from '../../core/rules/name-search';
import type { SearchDef } from './resource';

export const nameContaining: SearchDef<'findByNameContaining'> = {
  name: 'findByNameContaining',
  params: [{ name: 'name', required: true }],
  where: (a) => ({ nameKey: { [Op.like]: containsPattern(String(a.name)) } }),
};
