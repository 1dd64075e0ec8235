import { describe, expect, it } from 'vitest';
import { numbered } from '../../models/pg-prepared';

describe('numbered: hand-written statements as PostgreSQL prepared statements', () => {
  it('numbers each ? in order', () => {
    expect(numbered('SELECT a FROM t WHERE u = ? AND v = ? AND w = ?')).toBe('SELECT a FROM t WHERE u = $1 AND v = $2 AND w = $3');
  });
  it('a list IN (?) takes one array value: = ANY($n)', () => {
    expect(numbered('SELECT a FROM t WHERE "uid" IN (?)')).toBe('SELECT a FROM t WHERE "uid" = ANY($1)');
    expect(numbered('SELECT a FROM j WHERE x = ? AND j."source_uid" IN (?) ORDER BY p')).toBe('SELECT a FROM j WHERE x = $1 AND j."source_uid" = ANY($2) ORDER BY p');
  });
  it('leaves a statement without placeholders as it is', () => {
    expect(numbered('SELECT 1')).toBe('SELECT 1');
  });
  it('an IN list written out is not a placeholder', () => {
    expect(numbered("SELECT a FROM t WHERE s IN ('x', 'y') AND u = ?")).toBe("SELECT a FROM t WHERE s IN ('x', 'y') AND u = $1");
  });
});
