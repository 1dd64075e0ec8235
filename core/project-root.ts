/**
 * The project's folder (the one holding package.json and generated/). Found by walking up rather than fixed
 * relative to this file, because `npm start` runs the service as one bundle from node_modules/.cache.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'generated'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project folder (package.json beside generated/) above ${from}`);
  }
}

export const projectRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));
