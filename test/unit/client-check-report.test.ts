/**
 * What the CLI's `schema check` prints and its exit status (client/src/check-report.ts): the verdict's lines, GitHub
 * workflow commands escaped as GitHub's toolkit escapes them, and failures placed on the line the service names.
 */
import { describe, expect, it } from 'vitest';
import { annotation, failureReport, isCompatible, verdictReport } from '../../client/src/check-report';
import type { Schemas } from '../../client/src/index';

type Result = Schemas['CompatibilityCheckResult'];

const problem = (direction: 'reads' | 'read by', path = 'amount'): Schemas['CompatibilityProblem'] =>
  ({ against: '3', direction, path, rule: 'TYPE_MISMATCH', message: 'long cannot be read as int' });
const result = (over: Partial<Result> = {}): Result => ({
  schema: { uid: 'u', name: 'io.x.Order', type: 'AVRO', compatibility: 'FULL_TRANSITIVE' }, mode: 'FULL_TRANSITIVE',
  compatible: true, problems: [], environments: [], ...over,
});
const environment = (shortName: string, problems: Schemas['CompatibilityProblem'][]) => ({
  environment: { uid: shortName, name: shortName, shortName }, compatible: problems.length === 0,
  pinned: [{ topicName: 'orders', side: 'key' as const, version: '1', compatible: problems.length === 0, problems }],
});

describe('a verdict', () => {
  it('is compatible only when the versions and every environment are', () => {
    expect(isCompatible(result())).toBe(true);
    expect(isCompatible(result({ environments: [environment('prod', [problem('reads')])] }))).toBe(false);
    expect(isCompatible(result({ compatible: false, problems: [problem('reads')] }))).toBe(false);
  });

  it('says when no environment pins the schema', () => {
    expect(verdictReport('o.avsc', result(), 'text')).toEqual({ exitStatus: 0, stdout: ['o.avsc: compatible with io.x.Order (FULL_TRANSITIVE); no environment checked pins it'], stderr: [] });
  });

  it('names each direction, and leaves out an empty path (the whole schema)', () => {
    const report = verdictReport('o.avsc', result({ compatible: false, problems: [problem('read by', '')], environments: [environment('prod', [problem('reads')])] }), 'text');
    expect(report).toEqual({
      exitStatus: 1,
      stdout: [
        'o.avsc: not compatible with io.x.Order (FULL_TRANSITIVE): 2 problems',
        'o.avsc: version 3, old reads new data: long cannot be read as int (TYPE_MISMATCH)',
        'o.avsc: prod: orders key pins version 1, new reads old data: amount: long cannot be read as int (TYPE_MISMATCH)',
      ],
      stderr: [],
    });
  });

  it('prints the verdict as JSON with --format json, with the same exit status', () => {
    const verdict = result({ compatible: false, problems: [problem('reads')] });
    const report = verdictReport('o.avsc', verdict, 'json');
    expect(report.exitStatus).toBe(1);
    expect(JSON.parse(report.stdout.join('\n'))).toEqual(verdict);
  });
});

describe('GitHub workflow commands', () => {
  it('escape the message and the properties as actions/toolkit does', () => {
    expect(annotation({ file: 'a,b:c.avsc', line: 3, col: undefined, title: '100% new\nline' }, 'x: 50%\r\ny'))
      .toBe('::error file=a%2Cb%3Ac.avsc,line=3,title=100%25 new%0Aline::x: 50%25%0D%0Ay');
  });

  it('place a parse error on the line and column the service names', () => {
    const report = failureReport('o.proto', { status: 400, error: { status: 'BAD_REQUEST', message: 'Invalid schema', errors: ['schema: line 7, column 12: illegal token'] } } as never, 'github');
    expect(report).toEqual({
      exitStatus: 2,
      stdout: ['::error file=o.proto,line=7,col=12,title=Could not check compatibility::400: Invalid schema: schema: line 7, column 12: illegal token'],
      stderr: ['o.proto: could not check: 400: Invalid schema', 'o.proto: schema: line 7, column 12: illegal token'],
    });
  });

  it('put a failure without details on the file', () => {
    const report = failureReport('o.avsc', { message: 'fetch failed: connect ECONNREFUSED 127.0.0.1:1' }, 'github');
    expect(report.stdout).toEqual(['::error file=o.avsc,title=Could not check compatibility::fetch failed: connect ECONNREFUSED 127.0.0.1:1']);
    expect(failureReport('o.avsc', { message: 'x' }, 'text')).toEqual({ exitStatus: 2, stdout: [], stderr: ['o.avsc: could not check: x'] });
  });
});
