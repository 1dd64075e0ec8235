/**
 * Type-level test of the typed client: a create without its required fields, and a required reference set to
 * null, do not compile. Compiled by `npm run check`, never run (see client.type-test.ts).
 */
import { createPlatformClient } from '../../client/src/index';

const client = createPlatformClient({ baseUrl: 'http://localhost:8080/api', token: 'token' });
const OWNERS = 'https://portal.example.com/api/groups/0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f';
const INSTANCE = 'https://portal.example.com/api/instances/1a2b3c4d5e6f40718293a4b5c6d7e8f9';

/** A create without its required fields does not compile. */
export async function missingRequiredFields(): Promise<void> {
  // @ts-expect-error a group needs its name
  await client.POST('/groups', { body: {} });
  // @ts-expect-error a stream needs keyType, valueType and owners
  await client.POST('/streams', { body: { name: 'orders' } });
  // @ts-expect-error an environment needs its instance
  await client.POST('/environments', { body: { name: 'dev', shortName: 'dev', owners: OWNERS } });
  // @ts-expect-error a cluster needs its bootstrapServers
  await client.POST('/clusters', { body: { name: 'local' } });
  // @ts-expect-error a full replacement needs the required fields as a create does
  await client.PUT('/groups/{id}', { params: { path: { id: 'x' } }, body: { phoneNumber: '+31 20 123 4567' } });
  await client.POST('/groups', { body: { name: 'Orders team' } });
}

/** A required reference set to null does not compile. */
export async function nullRequiredReferences(): Promise<void> {
  // @ts-expect-error a stream's owners are required
  await client.POST('/streams', { body: { name: 'orders', keyType: 'String', valueType: 'AVRO', owners: null } });
  // @ts-expect-error an environment's instance is required
  await client.POST('/environments', { body: { name: 'dev', shortName: 'dev', instance: null, owners: OWNERS } });
  // @ts-expect-error a grant names its stream
  await client.POST('/application_access_grants', { body: { applicationId: 'a', streamId: null, environmentId: 'e', accessType: 'CONSUMER' } });
  await client.POST('/environments', { body: { name: 'dev', shortName: 'dev', instance: INSTANCE, owners: OWNERS } });
}
