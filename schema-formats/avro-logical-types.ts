/**
 * Logical types (Avro specification, "Logical Types"). A reader uses the underlying type of a logical type, so the
 * avsc types stay the underlying ones: values read and validate exactly as before. Schema resolution still needs a
 * decimal's precision and scale, which avsc drops when it is given no implementation of the logical type; the type
 * hook below therefore builds the underlying type as avsc would and remembers the annotation beside it.
 */
import avsc from 'avsc';

type ForSchemaOptions = NonNullable<Parameters<typeof avsc.Type.forSchema>[1]>;
type AvroSchemaJson = Parameters<typeof avsc.Type.forSchema>[0];
type Annotation = Record<string, unknown> & { logicalType: string };

/** Keyed by the type object: the annotation belongs to that one type, and goes when the type does. */
const annotations = new WeakMap<avsc.Type, Annotation>();

/** A `typeHook` for `avsc.Type.forSchema`: the underlying type of an annotated schema, its annotation kept. */
export function keepLogicalType(schema: unknown, opts: ForSchemaOptions): avsc.Type | undefined {
  if (!isAnnotated(schema)) return undefined;
  const { logicalType: _dropped, ...underlying } = schema;
  // Same options (registry, namespace, hook): named underlying types register as if the hook were not there.
  const type = avsc.Type.forSchema(underlying as AvroSchemaJson, opts);
  annotations.set(type, schema);
  return type;
}

export interface Decimal {
  precision: number;
  scale: number;
}

/**
 * The decimal `type` carries, or undefined. An invalid decimal counts as none: the specification says a reader
 * ignores an invalid logical type and uses the underlying type.
 */
export function decimalOf(type: avsc.Type): Decimal | undefined {
  const annotation = annotations.get(type);
  if (annotation?.logicalType !== 'decimal') return undefined;
  const { precision, scale = 0 } = annotation;
  if (!isCount(precision) || precision === 0 || !isCount(scale) || scale > precision) return undefined;
  if (type.typeName === 'bytes') return { precision, scale };
  if (type.typeName === 'fixed' && precision <= maxFixedPrecision((type as avsc.types.FixedType).size)) return { precision, scale };
  return undefined;
}

/** The specification's limit for a fixed of `size` bytes: floor(log10(2^(8·size − 1) − 1)) digits. */
function maxFixedPrecision(size: number): number {
  // 2^k is never a power of ten, so dropping the − 1 leaves the floor unchanged and avoids overflowing a double.
  return Math.floor((8 * size - 1) * Math.log10(2));
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

function isAnnotated(schema: unknown): schema is Annotation {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema)
    && typeof (schema as { logicalType?: unknown }).logicalType === 'string';
}
