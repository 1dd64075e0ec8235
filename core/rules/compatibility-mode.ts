/**
 * The compatibility modes of a schema (issue 45), as Confluent Schema Registry names them; what each means is
 * schema-formats/compatibility-modes'. Here so that the configuration (the default for new schemas) can name them.
 */
export const COMPATIBILITY_MODES = ['BACKWARD', 'BACKWARD_TRANSITIVE', 'FORWARD', 'FORWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE', 'NONE'] as const;
export type CompatibilityMode = (typeof COMPATIBILITY_MODES)[number];

export const isCompatibilityMode = (value: unknown): value is CompatibilityMode =>
  typeof value === 'string' && (COMPATIBILITY_MODES as readonly string[]).includes(value);
