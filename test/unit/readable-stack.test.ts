import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { readableStack } from '../../core/readable-stack';

const dir = mkdtempSync(path.join(os.tmpdir(), 'readable-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A two-file TypeScript program bundled as `npm start` bundles: ESM, a source map beside it. */
function bundle(sourcesContent: boolean): string {
  writeFileSync(path.join(dir, 'fails.ts'), [
    'export function fails(): never {',
    '  const reason: string = "on purpose";',
    '  throw new Error(reason);',
    '}',
  ].join('\n'));
  writeFileSync(path.join(dir, 'entry.ts'), "import { fails } from './fails';\nexport function run(): void {\n  fails();\n}\n");
  const out = path.join(dir, sourcesContent ? 'with.mjs' : 'without.mjs');
  buildSync({ entryPoints: [path.join(dir, 'entry.ts')], bundle: true, platform: 'node', format: 'esm', sourcemap: true, sourcesContent, outfile: out, logLevel: 'silent' });
  return out;
}

/** The stack of the bundle's error as plain Node prints it (vitest would map it itself). */
function stackOf(file: string): string {
  const script = `import { run } from ${JSON.stringify(pathToFileURL(file).href)}; try { run(); } catch (err) { process.stdout.write(err.stack); }`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

describe('readableStack', () => {
  it.each([true, false])('names the TypeScript file and line of each bundle frame (sourcesContent %s)', (content) => {
    const file = bundle(content);
    const stack = stackOf(file);
    expect(stack).toContain(path.basename(file));
    const readable = readableStack(stack, file);
    expect(readable).toContain(`${path.join(dir, 'fails.ts')}:3:`);
    expect(readable).toContain(`${path.join(dir, 'entry.ts')}:3:`);
    expect(readable).not.toContain(path.basename(file));
    // The message and the frames outside the bundle are kept.
    expect(readable.split('\n')[0]).toBe('Error: on purpose');
    expect(readable).toContain('[eval');
  });

  it('leaves a stack alone when the process runs no bundle with a map', () => {
    const stack = new Error('x').stack!;
    expect(readableStack(stack, path.join(dir, 'nothing-here.mjs'))).toBe(stack);
    expect(readableStack(stack, undefined)).toBe(stack);
    expect(readableStack(stack, __filename)).toBe(stack);
  });

  it('leaves a stack alone when the map cannot be read', () => {
    const file = bundle(true);
    const stack = stackOf(file);
    const broken = path.join(dir, 'broken.mjs');
    writeFileSync(broken, '');
    writeFileSync(`${broken}.map`, '{ not json');
    expect(readableStack(stack.replaceAll(path.basename(file), 'broken.mjs'), broken)).toBe(stack.replaceAll(path.basename(file), 'broken.mjs'));
  });
});
