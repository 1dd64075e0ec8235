import { readFileSync } from 'node:fs';
import path from 'node:path';
import { link } from '../core/hal';
import { hal, plain, type Handler } from './_lib/reply';
import { spec } from '../core/spec';
import { projectRoot as root } from '../core/project-root';
import { serviceVersion } from '../core/version';
import { resources } from './resources';

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { description: string };
const version = serviceVersion();
/** Read on first use: most processes never serve the YAML form, and it is as large as the document. */
let specYaml: string | undefined;

/** The collection relations of the index (templated with paging) and of `/profile`: one per registered resource. */
const COLLECTIONS = resources.map((r) => r.collection);

export const getIndex: Handler = (ctx) => {
  const links: Record<string, unknown> = {};
  for (const c of COLLECTIONS) links[c] = link(`${ctx.base}/${c}{?page,size,sort}`, true);
  for (const rel of ['user', 'group', 'tenant', 'profile']) links[rel] = link(`${ctx.base}/${rel}`);
  // Not collections, so plain links: a client reading `_embedded.<rel>` of every templated relation still can.
  links.auditHistory = link(`${ctx.base}/audit-history`);
  links.openapi = link(`${ctx.base}/openapi.json`);
  links.docs = link(`${ctx.base}/docs`);
  return hal({ _links: links });
};

export const getInfo: Handler = () => plain({
  name: 'platform-management-service',
  description: pkg.description,
  version,
});

export const getOpenApiJson: Handler = () => ({ status: 200, body: spec, contentType: 'application/json' });
export const getOpenApiYaml: Handler = () => {
  specYaml ??= readFileSync(path.join(root, 'generated', 'openapi.yaml'), 'utf8');
  return { status: 200, body: specYaml, contentType: 'application/yaml' };
};

export const getProfile: Handler = (ctx) => {
  const links: Record<string, unknown> = { self: link(`${ctx.base}/profile`) };
  for (const c of COLLECTIONS) links[c] = link(`${ctx.base}/profile/${c}`);
  return hal({ _links: links });
};
