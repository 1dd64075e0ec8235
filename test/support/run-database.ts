/** A database of its own for one test run, on whatever server DATABASE_URL names; dropped at the end. */
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../models/db';

export async function createRunDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pms_test_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase(serverUrl);
  const postgres = admin.getDialect() === 'postgres';
  await admin.query(postgres ? `CREATE DATABASE ${name} ENCODING 'UTF8'` : `CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.close();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = openDatabase(serverUrl);
      await again.query(`DROP DATABASE ${name}`);
      await again.close();
    },
  };
}
