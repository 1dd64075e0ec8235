/**
 * What `schema check` prints and the exit status it ends with, from the service's verdict or its error: plain lines
 * for any CI log, GitHub workflow commands (`::error file=…::…`) that GitHub shows as annotations on the pull
 * request, or the verdict as JSON. Pure: the command (./schema-check-command.ts) writes what this answers.
 */
import type { components } from './generated/schema.js';

type CheckResult = components['schemas']['CompatibilityCheckResult'];
type Problem = components['schemas']['CompatibilityProblem'];
type ApiError = components['schemas']['ApiError'];

export const REPORT_FORMATS = ['text', 'github', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** 0 compatible, 1 incompatible, 2 could not check (bad input, no token, service unreachable or refusing). */
export type ExitStatus = 0 | 1 | 2;

export interface Report { exitStatus: ExitStatus; stdout: string[]; stderr: string[] }

/** Compatible with the schema's versions in the mode, and with every version pinned in the environments answered. */
export function isCompatible(result: CheckResult): boolean {
  return result.compatible && result.environments.every((environment) => environment.compatible);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** One problem in words: which way the data flows, where, what, by which rule. */
function problemText(problem: Problem): string {
  const flow = problem.direction === 'reads' ? 'new reads old data' : 'old reads new data';
  return `${flow}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message} (${problem.rule})`;
}

/** Every reason, each with what it was judged against: a version of the schema, or a version an environment pins. */
function reasons(result: CheckResult): string[] {
  const lines = result.problems.map((problem) => `version ${problem.against}, ${problemText(problem)}`);
  for (const { environment, pinned } of result.environments) {
    for (const pin of pinned) {
      for (const problem of pin.problems) lines.push(`${environment.shortName}: ${pin.topicName} ${pin.side} pins version ${pin.version}, ${problemText(problem)}`);
    }
  }
  return lines;
}

function summary(file: string, result: CheckResult): string {
  const against = `${result.schema.name} (${result.mode})`;
  if (!isCompatible(result)) return `${file}: not compatible with ${against}: ${plural(reasons(result).length, 'problem')}`;
  const environments = result.environments.map((e) => e.environment.shortName);
  const pins = environments.length === 0 ? 'no environment checked pins it' : `the versions pinned in ${environments.join(', ')} too`;
  return `${file}: compatible with ${against}; ${pins}`;
}

/** GitHub's escaping of a workflow command's message and of its properties (actions/toolkit, command.ts). */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=…,line=…,col=…,title=…::message` */
export function annotation(properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties).filter(([, value]) => value !== undefined).map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
  return `::error ${props.join(',')}::${escapeData(message)}`;
}

/** The report of a verdict. */
export function verdictReport(file: string, result: CheckResult, format: ReportFormat): Report {
  const exitStatus: ExitStatus = isCompatible(result) ? 0 : 1;
  if (format === 'json') return { exitStatus, stdout: [JSON.stringify(result, null, 2)], stderr: [] };
  const lines = reasons(result);
  const title = `Not ${result.mode} compatible with ${result.schema.name}`;
  const detail = format === 'github' ? lines.map((line) => annotation({ file, title }, line)) : lines.map((line) => `${file}: ${line}`);
  return { exitStatus, stdout: [summary(file, result), ...detail], stderr: [] };
}

const POSITION = /\bline (\d+), column (\d+)\b/;

/**
 * The report of a check the service refused (its error body) or that never reached a verdict (`message`). A parse
 * error's line and column, which the service names, place the GitHub annotation on that line of the file.
 */
export function failureReport(file: string, failure: { status?: number; error?: ApiError; message?: string }, format: ReportFormat): Report {
  const { error } = failure;
  const heading = error ? `${failure.status ?? error.status}: ${error.message}` : failure.message ?? 'unknown failure';
  const details = error?.errors ?? [];
  const stderr = [`${file}: could not check: ${heading}`, ...details.map((detail) => `${file}: ${detail}`)];
  if (format !== 'github') return { exitStatus: 2, stdout: [], stderr };
  const title = 'Could not check compatibility';
  const placed = (details.length > 0 ? details : [heading]).map((detail) => {
    const at = POSITION.exec(detail);
    return annotation({ file, line: at?.[1], col: at?.[2], title }, details.length > 0 ? `${heading}: ${detail}` : detail);
  });
  return { exitStatus: 2, stdout: placed, stderr };
}
