/** Rules of one application between its fields (docs/contract.md §4.3, §5.10), as pure functions. */
import type { SubError } from '../errors';

/** docs/contract.md §4.3: which `type` values fit each `applicationType` (Ksml takes none). */
export const TYPES_BY_APPLICATION_TYPE: Record<string, readonly string[]> = {
  Custom: ['Java', 'Kafka Streams', 'Pega', 'SAP', 'DotNet', 'Bridge', 'Python', 'KSML', 'Other'],
  Connector: ['SINK', 'SOURCE'],
  Ksml: [],
};

/** The rules between fields that a schema cannot say: `type` per `applicationType`, `applicationClass` for connectors. */
export function applicationProblems(values: { applicationType?: string; type?: string | null; applicationClass?: string | null }): SubError[] {
  const problems: SubError[] = [];
  const kind = values.applicationType ?? '';
  const allowed = Object.hasOwn(TYPES_BY_APPLICATION_TYPE, kind) ? TYPES_BY_APPLICATION_TYPE[kind] : [];
  if (values.type != null && !allowed.includes(values.type)) {
    const message = allowed.length === 0 ? `must be empty for a ${kind} application` : `must be one of ${allowed.join(', ')} for a ${kind} application`;
    problems.push({ field: 'type', message, rejectedValue: values.type });
  }
  if (kind === 'Connector' && (values.applicationClass == null || values.applicationClass.trim() === '')) {
    problems.push({ field: 'applicationClass', message: 'is required for a Connector application' });
  }
  return problems;
}
