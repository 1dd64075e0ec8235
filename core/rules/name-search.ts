/**
 * "Name contains" as a LIKE pattern over the stored lower-case twin of a name (models/define): the text lower-cased,
 * LIKE's own characters (`%`, `_` and the escape `\`) escaped, so a search for `a_b` finds only `a_b`. The same
 * pattern means the same on PostgreSQL, MySQL and MariaDB, whose LIKE all take `\` as the default escape.
 */
export const MAX_SEARCH_LENGTH = 180;

export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
