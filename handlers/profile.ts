/** `/profile/{collection}`: ALPS (default) or JSON Schema of one collection, derived from descriptor and spec. */
import { accepts, type Handler } from './_lib/reply';
import { NotFoundError } from '../core/errors';
import type { Resource } from './_lib/resource';
import { resourceByCollection } from './resources';
import { deref, spec } from '../core/spec';
import { toDraft07 } from './_lib/json-schema';

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function alps(resource: Resource, base: string) {
  const representation = `${resource.itemRel}-representation`;
  const fields = resource.fields.filter((f) => !f.writeOnly).map((f) => ({ name: f.name, type: 'SEMANTIC' }));
  const associations = resource.associations.map((a) => ({ name: a.rel, type: 'SAFE', rt: `${base}/profile/${a.target().collection}#${a.target().itemRel}-representation` }));
  const paging = ['page', 'size', 'sort'].map((name) => ({ name, type: 'SEMANTIC', doc: { format: 'TEXT', value: `The ${name} to return.` } }));
  return {
    alps: {
      version: '1.0',
      descriptor: [
        { id: representation, href: `${base}/profile/${resource.collection}`, descriptor: [...fields, ...associations] },
        { id: `get-${resource.collection}`, name: resource.collection, type: 'SAFE', descriptor: paging, rt: `#${representation}` },
        { id: `create-${resource.collection}`, name: resource.collection, type: 'UNSAFE', descriptor: [], rt: `#${representation}` },
        { id: `get-${resource.itemRel}`, name: resource.itemRel, type: 'SAFE', descriptor: [], rt: `#${representation}` },
        { id: `update-${resource.itemRel}`, name: resource.itemRel, type: 'IDEMPOTENT', descriptor: [], rt: `#${representation}` },
        { id: `patch-${resource.itemRel}`, name: resource.itemRel, type: 'UNSAFE', descriptor: [], rt: `#${representation}` },
        { id: `delete-${resource.itemRel}`, name: resource.itemRel, type: 'IDEMPOTENT', descriptor: [], rt: `#${representation}` },
        ...resource.searches.map((s) => ({ id: s.name, name: s.name, type: 'SAFE', descriptor: s.params.map((p) => ({ name: p.name, type: 'SEMANTIC' })) })),
      ],
    },
  };
}

/** Draft-07 JSON Schema of one item: its fields as flat `properties` (HAL's `_links`/`_embedded` left out). */
function jsonSchema(resource: Resource) {
  const name = pascal(resource.itemRel);
  const schema = spec.components.schemas[name];
  const flat = schema ? toDraft07(deref(schema)) : { type: 'object', properties: {} };
  const { _links: _l, _embedded: _e, ...properties } = flat.properties ?? {};
  const required = (flat.required ?? []).filter((r: string) => r in properties);
  return { $schema: 'http://json-schema.org/draft-07/schema#', title: name, ...flat, properties, required };
}

export const getCollectionProfile: Handler = (ctx) => {
  const resource = resourceByCollection(ctx.params.collection);
  if (!resource) throw new NotFoundError(`No profile for ${ctx.params.collection}`);
  if (accepts(ctx, 'application/schema+json')) return { status: 200, body: jsonSchema(resource), contentType: 'application/schema+json' };
  return { status: 200, body: alps(resource, ctx.base), contentType: 'application/alps+json' };
};
