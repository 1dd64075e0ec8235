/**
 * Issue 41: the documents say what the code does. Every relative link in README.md and docs/ reaches a file (and a
 * heading, when it names one); docs/README.md links every document; the admin table of docs/operations.md lists
 * exactly the commands `npm run admin -- help` prints; the CI recipes are YAML and call the CLI as it parses.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { CLI_OPTIONS } from '../../client/src/cli-options';
import { COMMANDS } from '../../scripts/admin-commands';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(file);
    return entry.name.endsWith('.md') ? [file] : [];
  });
}

/** The text outside fenced code blocks, where a `#` line is no heading and `[x](y)` no link. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');

/** GitHub's anchors of a document's headings: lowercased, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, title] of prose(text).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = title.replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return found;
}

/** Relative links of a document: [text](target), the target split into file and anchor. */
function links(text: string): { target: string; file: string; anchor?: string }[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [file, anchor] = target.split('#');
      return { target, file, anchor };
    });
}

const DOCUMENTS = ['README.md', ...markdownFiles('docs')];

describe('links between the documents', () => {
  it.each(DOCUMENTS)('%s: every relative link reaches its file and heading', (doc) => {
    const broken = links(read(doc)).filter(({ file, anchor }) => {
      const target = file === '' ? doc : path.posix.normalize(path.posix.join(path.posix.dirname(doc), file));
      if (!existsSync(path.join(ROOT, target))) return true;
      return anchor !== undefined && target.endsWith('.md') && !anchors(read(target)).has(anchor);
    });
    expect(broken.map((l) => l.target)).toEqual([]);
  });

  it('docs/README.md links every document in docs/ and the decision records', () => {
    const linked = new Set(links(read('docs/README.md')).map(({ file }) => path.posix.join('docs', file)));
    const documents = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    const missing = [...documents.map((f) => `docs/${f}`), 'docs/adr/README.md'].filter((f) => !linked.has(f));
    expect(missing).toEqual([]);
  });
});

describe('docs/operations.md', () => {
  const text = read('docs/operations.md');

  it('lists exactly the admin commands, each with the arguments `help` prints', () => {
    const section = text.slice(text.indexOf('## Administration'), text.indexOf('\n## ', text.indexOf('## Administration') + 1));
    // A `|` in a table cell is written `\|`, even inside code.
    const rows = [...section.matchAll(/^\| `([^`]+)`/gm)].map(([, command]) => command.replace(/\\\|/g, '|'));
    const expected = [...Object.entries(COMMANDS).map(([name, c]) => `${name} ${c.synopsis}`.trim()), 'help'];
    expect(rows).toEqual(expected);
  });

  it('names no fixed service version: it says where the version comes from', () => {
    expect(text).not.toMatch(/\b\d+\.\d+\.\d+\+/);
  });
});

describe('the CI recipes (docs/schema-checks-in-ci.md)', () => {
  const doc = read('docs/schema-checks-in-ci.md');
  const blocks = (lang: string) => [...doc.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map(([, body]) => body);

  it('are YAML a runner reads', () => {
    expect(blocks('yaml').length).toBeGreaterThanOrEqual(3);
    for (const block of blocks('yaml')) expect(yaml.load(block)).toBeTypeOf('object');
  });

  it('call the CLI with options it has, naming a document and a schema', () => {
    const commands = [...doc.replace(/\\\n\s*/g, '').matchAll(/npx (?:--yes )?@platform-management-service\/client(?:@\d+)? (schema check [^\n]*)/g)]
      .map(([, command]) => command.replace(/\[[^\]]*\]\.*/g, '').replace(/ \|\|.*$/, ''));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) {
      const args = [...command.replace(/\$\([^)]*\)/g, 'x').matchAll(/"[^"]*"|\S+/g)].map(([arg]) => arg);
      const { values, positionals } = parseArgs({ args, options: CLI_OPTIONS, allowPositionals: true, strict: true });
      expect(positionals.slice(0, 2)).toEqual(['schema', 'check']);
      expect(positionals).toHaveLength(3);
      expect(values.schema, command).toBeDefined();
    }
  });
});
