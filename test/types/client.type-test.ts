/**
 * Type-level test of the typed client (client/), compiled by `npm run check` and never run: each `@ts-expect-error`
 * line is a wrong call that must not compile (tsc fails on an expect-error that finds no error), and the lines
 * without one are right calls that must. Required fields and required references are proved in
 * client-required.type-test.ts.
 */
import { createPlatformClient, type ApiError, type Group, type Schemas, type Stream } from '../../client/src/index';

const client = createPlatformClient({ baseUrl: 'http://localhost:8080/api', token: 'token' });
const OWNERS = 'https://portal.example.com/api/groups/0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f';

/** Right calls compile, and type what they answer from the document. */
export async function rightCalls(): Promise<void> {
  const group = await client.POST('/groups', { body: { name: 'Orders team', members: [] } });
  if (group.data) {
    const created: Group = group.data;
    await client.GET('/groups/{id}', { params: { path: { id: created.uid } } });
  }
  if (group.error) {
    const error: ApiError = group.error;
    void error.message;
  }
  const stream = await client.POST('/streams', { body: { name: 'orders', keyType: 'String', valueType: 'AVRO', owners: OWNERS } });
  const read: Stream | undefined = stream.data;
  void read;
  const page = await client.GET('/streams', { params: { query: { page: 0, size: 20, sort: ['name,asc'] } } });
  const names: string[] = page.data?._embedded.streams.map((s) => s.name) ?? [];
  void names;
  await client.PATCH('/groups/{id}', { params: { path: { id: 'x' } }, body: { phoneNumber: null } });
  await client.DELETE('/groups/{id}', { params: { path: { id: 'x' } } });
  const yaml = await client.GET('/openapi.yaml', { parseAs: 'text' });
  const text: string | undefined = yaml.data;
  void text;
  const contact: Schemas['TenantContactInput'] = { name: 'Ops', emailAddress: 'ops@example.com' };
  await client.PUT('/tenants/{id}/contact', { params: { path: { id: 'x' } }, body: contact });
}

/** An unknown field on a body does not compile, also when every required field is there. */
export async function unknownFields(): Promise<void> {
  // @ts-expect-error 'emial' is not a field of a group (a misspelt emailAddress)
  await client.POST('/groups', { body: { name: 'Orders team', emial: 'orders@example.com' } });
  // @ts-expect-error TenantContactInput is closed (additionalProperties: false)
  await client.PUT('/tenants/{id}/contact', { params: { path: { id: 'x' } }, body: { name: 'Ops', emailAddress: 'ops@example.com', phone: '1' } });
  // @ts-expect-error 'phonNumber' is not a field of a group
  await client.PATCH('/groups/{id}', { params: { path: { id: 'x' } }, body: { phonNumber: '+31 20 123 4567' } });
  // @ts-expect-error 'sizee' is not a query parameter of listStreams
  await client.GET('/streams', { params: { query: { sizee: 20 } } });
}

/** A value outside an enum does not compile. */
export async function wrongEnumValues(): Promise<void> {
  // @ts-expect-error keyType is one of AVRO, JSON, Binary, String, Xml, PROTOBUF, JSON_SCHEMA
  await client.POST('/streams', { body: { name: 'orders', keyType: 'STRING', valueType: 'AVRO', owners: OWNERS } });
  // @ts-expect-error authorizationIssuer is "Stream owner" or "Auto"
  await client.PATCH('/environments/{id}', { params: { path: { id: 'x' } }, body: { authorizationIssuer: 'Owners' } });
  await client.POST('/application_access_grants', {
    // @ts-expect-error accessType is CONSUMER or PRODUCER
    body: { applicationId: 'a', streamId: 's', environmentId: 'e', accessType: 'READER' },
  });
}

/** Paths, methods and path parameters are checked too. */
export async function wrongPaths(): Promise<void> {
  // @ts-expect-error no such path
  await client.GET('/stream', {});
  // @ts-expect-error the item path needs its id
  await client.GET('/groups/{id}');
  // @ts-expect-error /info has no DELETE
  await client.DELETE('/info', {});
}
