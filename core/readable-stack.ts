/**
 * Stack traces of `npm start`'s bundle told by their TypeScript files and lines. Node's `--enable-source-maps` does
 * this too, but it reads and keeps the source map of every package that ships one, several MB in each process
 * (docs/adr/0006); here only the bundle's own map is read, on the first stack that names the bundle. A process that
 * does not run the bundle (tests, scripts under tsx) gets its stacks unchanged.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Bundle { file: string; url: string; map: SourceMap; dir: string }
const bundles = new Map<string, Bundle | null>();

function bundleOf(file: string): Bundle | null {
  let found = bundles.get(file);
  if (found === undefined) {
    const mapFile = `${file}.map`;
    found = null;
    if (file.endsWith('.mjs') && existsSync(mapFile)) {
      try {
        found = { file, url: pathToFileURL(file).href, map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))), dir: path.dirname(mapFile) };
      } catch {
        found = null;
      }
    }
    bundles.set(file, found);
  }
  return found;
}

/** A frame's `<file>:<line>:<column>`, the file a path or a file: URL. */
const LOCATION = /(file:\/\/[^\s()]+|\/[^\s():]+):(\d+):(\d+)/g;

/**
 * `stack` with each frame in `bundleFile` (default: the script this process runs) named by its source file, line
 * and column; frames elsewhere, and frames the map does not cover, as they were.
 */
export function readableStack(stack: string, bundleFile: string | undefined = process.argv[1]): string {
  if (!bundleFile) return stack;
  const bundle = bundleOf(path.resolve(bundleFile));
  if (!bundle) return stack;
  return stack.replace(LOCATION, (whole, file: string, line: string, column: string) => {
    if (file !== bundle.file && file !== bundle.url) return whole;
    const entry = bundle.map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return whole;
    const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : path.resolve(bundle.dir, entry.originalSource);
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
