/**
 * PROTOBUF schemas: a .proto file parsed by protobufjs; the first message declared (package-qualified) names the
 * Schema.
 */
import * as protobuf from 'protobufjs';
import { SchemaParseError, type ParsedProtobufSchema } from './types';

// protobufjs ends its messages with "(line N)"; moving it to the front matches the other formats' problems.
const LINE_SUFFIX = /\s*\(line (\d+)\)\s*$/;

export function parseProtobufSchema(text: string): ParsedProtobufSchema {
  const root = parseProto(text);
  const message = firstMessage(root);
  if (!message) {
    throw new SchemaParseError('PROTOBUF', ['no message is defined: the first message names the schema']);
  }
  return { type: 'PROTOBUF', fullName: qualifiedName(message), normalised: text.trim(), root, message };
}

/** `.pkg.Name` as protobufjs spells it, without the leading dot that marks it absolute. */
export function qualifiedName(reflection: protobuf.ReflectionObject): string {
  return reflection.fullName.replace(/^\./, '');
}

/** Every message of the file in declaration order, nested messages right after their parent. */
export function allMessages(namespace: protobuf.NamespaceBase): protobuf.Type[] {
  const found: protobuf.Type[] = [];
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) found.push(nested);
    // A message is itself a namespace, so this also descends into nested messages.
    if (nested instanceof protobuf.Namespace) found.push(...allMessages(nested));
  }
  return found;
}

function firstMessage(root: protobuf.Root): protobuf.Type | undefined {
  return allMessages(root)[0];
}

function parseProto(text: string): protobuf.Root {
  try {
    return protobuf.parse(text, { keepCase: true }).root;
  } catch (error) {
    throw new SchemaParseError('PROTOBUF', [withLineFirst((error as Error).message)]);
  }
}

function withLineFirst(message: string): string {
  const match = LINE_SUFFIX.exec(message);
  return match ? `line ${match[1]}: ${message.replace(LINE_SUFFIX, '')}` : message;
}
