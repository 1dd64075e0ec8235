/**
 * Which handler answers each operation of the spec. An operation of a generic kind (generated/generic-operations.ts,
 * read off the spec's paths and operationIds by `npm run generate`) whose collection is a registered resource is
 * answered by the generic layer from that resource's descriptor; every other operation by a handler of its own, a
 * function named after its operationId. handlers/index.ts puts the two together and type-checks the result.
 */
import { genericOperations } from '../../generated/generic-operations';
import { associationHandlers } from './associations';
import { resourceHandlers } from './crud';
import type { Handler } from './reply';
import type { Resource } from './resource';

type Generic = typeof genericOperations;
type GenericOperationId = keyof Generic;
type GenericOperation = Generic[GenericOperationId];

/** The collections of the spec's resources (those with an item path `/<collection>/{id}`). */
type Collection = GenericOperation['collection'];
/** The names of the spec's searches of a collection (`/<collection>/search/<name>`). */
type SpecSearch<C extends string> = Extract<GenericOperation, { collection: C; search: string }>['search'];

/** Whether the descriptor `R` answers the generic operation `O`: one of its collection, a search only if it has it. */
type Answers<R extends Resource, O> = O extends { collection: R['collection'] }
  ? O extends { search: infer N } ? N extends R['searches'][number]['name'] ? true : false : true
  : false;

/** The operations a union of descriptors answers. */
export type DerivedOperationId<R extends Resource> = {
  [K in GenericOperationId]: true extends (R extends unknown ? Answers<R, Generic[K]> : never) ? K : never;
}[GenericOperationId];

/**
 * What is wrong with the type of a descriptor, or never: a type that is not literal (a plain `Resource` would
 * answer every search of the spec), a collection the spec has no resource of, a search the spec does not list.
 */
export type DescriptorProblem<R extends Resource> = R extends unknown
  ? string extends R['collection'] ? 'a descriptor typed Resource, not Resource<collection, searches>'
    : R['collection'] extends Collection
      ? string extends R['searches'][number]['name'] ? `${R['collection']}: its searches typed string, not their names`
        : Exclude<R['searches'][number]['name'], SpecSearch<R['collection']>> extends never ? never
          : `${R['collection']}: search ${Exclude<R['searches'][number]['name'], SpecSearch<R['collection']> & string>} is not in the spec`
      : `${R['collection']}: not a collection of the spec`
  : never;

declare const replacement: unique symbol;
/** The mark of `replacesGeneric`. */
export interface Replacement { readonly [replacement]: true }

/**
 * Marks a handler of its own for an operation that the resource's descriptor would answer generically (a grant is
 * created by a request, not from a body). The type check refuses such a handler without the mark, so that none
 * shadows the generic one unnoticed, and the mark where nothing generic is replaced.
 */
export const replacesGeneric = <H extends Handler>(handler: H): H & Replacement => handler as H & Replacement;

function derive(resource: Resource, op: GenericOperation, crud: ReturnType<typeof resourceHandlers>, association: () => ReturnType<typeof associationHandlers>): Handler {
  switch (op.kind) {
    case 'list': return crud.list;
    case 'create': return crud.create;
    case 'listSearches': return crud.searchIndex;
    case 'find':
      if (!resource.searches.some((s) => s.name === op.search)) {
        throw new Error(`${op.collection}: the descriptor has no search ${op.search}, and the operation no handler of its own`);
      }
      return crud.search(op.search);
    case 'get': return crud.get;
    case 'replace': return crud.replace;
    case 'patch': return crud.patch;
    case 'delete': return crud.remove;
    case 'getAssociation': return association().get;
    case 'replaceAssociation': return association().put;
    case 'addAssociationTargets': return association().post;
    case 'patchAssociation': return association().patch;
    case 'deleteAssociation': return association().remove;
    case 'getAssociationMember': return association().getMember;
    case 'deleteAssociationMember': return association().removeMember;
    default: {
      const unknown: never = op;
      throw new Error(`no generic handler for ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The handler of every operation: the generic ones of the registered resources, derived from their descriptors,
 * and `own`, the handlers of their own, which also take the place of generic ones (marked `replacesGeneric`).
 */
export function wire(resources: readonly Resource[], own: Record<string, Handler>): Record<string, Handler> {
  const byCollection = new Map<string, Resource>();
  for (const resource of resources) {
    if (byCollection.has(resource.collection)) throw new Error(`${resource.collection} is registered twice`);
    byCollection.set(resource.collection, resource);
  }
  const crud = new Map<Resource, ReturnType<typeof resourceHandlers>>();
  const associations = new Map<Resource, ReturnType<typeof associationHandlers>>();
  const derived: Record<string, Handler> = {};
  for (const [id, op] of Object.entries(genericOperations) as [string, GenericOperation][]) {
    const resource = byCollection.get(op.collection);
    if (!resource || id in own) continue;
    if (!crud.has(resource)) crud.set(resource, resourceHandlers(resource));
    const association = () => {
      if (!associations.has(resource)) associations.set(resource, associationHandlers(resource));
      return associations.get(resource)!;
    };
    derived[id] = derive(resource, op, crud.get(resource)!, association);
  }
  return { ...derived, ...own };
}
