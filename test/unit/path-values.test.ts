import { OpenAPIBackend } from 'openapi-backend';
import { describe, expect, it } from 'vitest';
import { withLenientPathValues } from '../../server/path-values';
import { plainCheckOf } from '../../server/plain-parameters';
import { deref, spec } from '../../core/spec';

describe('path values for the request validator', () => {
  const lenient = withLenientPathValues(structuredClone(spec));

  it('keeps type and lengths of a path parameter, drops its pattern and enum', () => {
    expect(spec.components.parameters.id.schema.pattern).toBeDefined();
    expect(lenient.components.parameters.id.schema).toEqual({ type: 'string', minLength: 1, maxLength: 64 });
    const rel = lenient.paths['/groups/{id}/{rel}'].parameters.find((p: { name: string }) => p.name === 'rel');
    expect(rel.schema).toEqual({ type: 'string' });
    const uid = lenient.paths['/audit-history/{uid}'].parameters.find((p: { name: string }) => p.name === 'uid');
    expect(uid.schema).toEqual({ type: 'string' });
  });

  it('leaves query parameters and the published document alone', () => {
    const action = lenient.paths['/audit-history'].get.parameters.find((p: { name: string }) => p.name === 'action');
    expect(action.schema.enum).toContain('TOPIC_CONFIGURED');
    expect(lenient.components.parameters.page.schema.maximum).toBe(1_000_000_000);
    const rel = spec.paths['/groups/{id}/{rel}'].parameters.find((p: { name: string }) => p.name === 'rel');
    expect(rel.schema.enum).toEqual(['members', 'managers', 'resourceManagers']);
  });

  it('the uid pattern takes every form a path uid has been accepted in', () => {
    const uid = new RegExp(spec.components.parameters.id.schema.pattern, 'u');
    for (const ok of ['0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f', '0C9F3E4A5B6C4D7E8F901A2B3C4D5E6F', '0c9f3e4a-5b6c-4d7e-8f90-1a2b3c4d5e6f']) {
      expect(uid.test(ok), ok).toBe(true);
    }
    for (const no of ['not-a-uid', '0c9f3e4a5b6c4d7e8f901a2b3c4d5e6', '0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f0', 'zc9f3e4a5b6c4d7e8f901a2b3c4d5e6f']) {
      expect(uid.test(no), no).toBe(false);
    }
  });

  it('a GET of one item still skips the validator (server/plain-parameters): the uid pattern costs no Ajv run', async () => {
    const api = new OpenAPIBackend({ definition: withLenientPathValues(structuredClone(spec)) as never, apiRoot: '/api', quick: true });
    await api.init();
    const parameters = ((api.getOperation('getGroup') as unknown as { parameters?: unknown[] }).parameters ?? []).map((p) => deref(p));
    expect(plainCheckOf(parameters)).toBeTypeOf('function');
  });
});
