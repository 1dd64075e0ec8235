import Negotiator from 'negotiator';
import { createHash } from 'node:crypto';
import { DocumentCache } from '../asyncapi/cache';
import { assembleAsyncApi } from '../asyncapi/document';
import { toYaml } from '../asyncapi/yaml';
import { asyncApiSource } from '../models/asyncapi-source';
import { uidOf } from './_lib/references';
import type { RequestContext } from '../core/context';
import { HttpError, NotFoundError } from '../core/errors';
import { asyncApiCacheUsed } from '../core/observe';
import { noneMatch } from './_lib/etag';
import { JSON_TYPE, plain, type Handler } from './_lib/reply';

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];
// Order matters: `*/*` and a missing Accept take the first, the JSON form.
const OFFERED = [JSON_TYPE, 'application/hal+json', 'application/vnd.hal+json', 'application/prs.hal-forms+json', ...YAML_TYPES];

/** 64 MiB of YAML text; a typical document is a few KiB. */
const cache = new DocumentCache(64 * 1024 * 1024);

function wantsYaml(ctx: RequestContext): boolean {
  const accept = ctx.headers.accept;
  const chosen = new Negotiator({ headers: { accept: Array.isArray(accept) ? accept.join(',') : accept } }).mediaType(OFFERED);
  if (!chosen) throw new HttpError(406, `Not acceptable: the AsyncAPI document is served as ${[JSON_TYPE, ...YAML_TYPES].join(', ')}`);
  return YAML_TYPES.includes(chosen);
}

const tagOf = (stamp: string) => `"${createHash('sha256').update(stamp).digest('base64url').slice(0, 32)}"`;

export const getStreamConfigAsyncApi: Handler = async (ctx) => {
  const yaml = wantsYaml(ctx);
  const uid = uidOf(ctx.params.id);
  const tokenUrl = (realm: string) => `${ctx.deps.authUrl()}/realms/${realm}/protocol/openid-connect/token`;
  const source = uid === null ? null : await asyncApiSource(ctx.models, ctx.principal.tenant.uid, uid, tokenUrl);
  if (!source) throw new NotFoundError(`streamConfig ${ctx.params.id} not found`);
  const headers = { ETag: tagOf(`${yaml ? 'yaml' : 'json'}|${source.stamp}`), Vary: 'Accept' };
  if (noneMatch(ctx, headers.ETag)) return { status: 304, headers };
  let text = cache.get(uid!, source.stamp);
  asyncApiCacheUsed(text !== undefined);
  if (text === undefined) {
    text = toYaml(assembleAsyncApi(await source.input()));
    cache.set(uid!, source.stamp, text);
  }
  return yaml ? { status: 200, body: text, contentType: 'application/yaml', headers } : plain({ asyncApiSpec: text }, 200, headers);
};
