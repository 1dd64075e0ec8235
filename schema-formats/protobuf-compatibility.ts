/**
 * PROTOBUF backward compatibility: the wire format identifies fields by number only, so old data stays readable
 * as long as no field number is reused with another type or name. Added and removed fields are fine.
 */
import type * as protobuf from 'protobufjs';
import { allMessages, qualifiedName } from './protobuf';

export function protobufBackwardProblems(oldRoot: protobuf.Root, newRoot: protobuf.Root): string[] {
  const newMessages = new Map(allMessages(newRoot).map((m) => [qualifiedName(m), m]));
  return allMessages(oldRoot).flatMap((oldMessage) => {
    const name = qualifiedName(oldMessage);
    const newMessage = newMessages.get(name);
    return newMessage ? changedFields(name, oldMessage, newMessage) : [];
  });
}

function changedFields(messageName: string, oldMessage: protobuf.Type, newMessage: protobuf.Type): string[] {
  const problems: string[] = [];
  for (const oldField of oldMessage.fieldsArray) {
    const newField = newMessage.fieldsById[oldField.id];
    if (!newField) continue;
    const was = describeField(oldField);
    const now = describeField(newField);
    if (was !== now) problems.push(`message '${messageName}' field ${oldField.id} was '${was}', now '${now}'`);
  }
  return problems;
}

/** `repeated pkg.Address addresses`, `map<string, int32> counts`: the declaration as it matters on the wire. */
function describeField(field: protobuf.Field): string {
  const valueType = qualifiedTypeName(field);
  const keyType = (field as protobuf.Field & { keyType?: string }).keyType;
  const type = field.map && keyType ? `map<${keyType}, ${valueType}>` : valueType;
  return `${field.repeated && !field.map ? 'repeated ' : ''}${type} ${field.name}`;
}

/**
 * Message and enum types are compared by full name, so `Address` written inside `pkg` equals `pkg.Address`
 * written in full. Types from imports cannot be looked up and are compared as written.
 */
function qualifiedTypeName(field: protobuf.Field): string {
  try {
    return qualifiedName(field.parent!.lookupTypeOrEnum(field.type));
  } catch {
    return field.type;
  }
}
