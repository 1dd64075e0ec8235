/** Issue 30: the version `/api/info` and `npm run admin -- status` report, `<package.json version>+<build>`. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitCommit, serviceVersion } from '../../core/version';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const OTHER = 'fedcba9876543210fedcba9876543210fedcba98';
const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

/** A project folder with package.json and the given files below it. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'pms-version-'));
  dirs.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ version: '7.0.0' }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the service version', () => {
  it('is the package version plus BUILD_ID when it is set', () => {
    expect(serviceVersion({ BUILD_ID: '20261121.42' }, project({ '.git/HEAD': `${SHA}\n` }))).toBe('7.0.0+20261121.42');
  });

  it('else plus the checked-out commit, seven hex digits', () => {
    expect(serviceVersion({}, project({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/refs/heads/main': `${SHA}\n` }))).toBe('7.0.0+0123456');
  });

  it('else plus dev', () => {
    expect(serviceVersion({}, project({}))).toBe('7.0.0+dev');
    expect(serviceVersion({ BUILD_ID: '  ' }, project({ '.git/HEAD': 'ref: refs/heads/gone\n' }))).toBe('7.0.0+dev');
  });

  it.each([
    ['a detached HEAD', { '.git/HEAD': `${SHA}\n` }],
    ['a loose ref', { '.git/HEAD': 'ref: refs/heads/main\n', '.git/refs/heads/main': `${SHA}\n` }],
    ['a packed ref', { '.git/HEAD': 'ref: refs/heads/main\n', '.git/packed-refs': `# pack-refs with: peeled fully-peeled sorted\n${OTHER} refs/heads/other\n${SHA} refs/heads/main\n` }],
    ['a worktree, whose refs live in the common directory', {
      '.git': 'gitdir: ../main/.git/worktrees/wt\n',
      '../main/.git/worktrees/wt/HEAD': 'ref: refs/heads/feature\n',
      '../main/.git/worktrees/wt/commondir': '../..\n',
      '../main/.git/refs/heads/feature': `${SHA}\n`,
    }],
  ])('reads the commit of %s from .git without git', (_case, files) => {
    const root = project(Object.fromEntries(Object.entries(files).map(([f, t]) => [f.startsWith('../') ? `repo/${f.slice(3)}` : `repo/wt/${f}`, t])));
    expect(gitCommit(path.join(root, 'repo/wt'))).toBe(SHA);
  });
});
