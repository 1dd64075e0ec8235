/**
 * The running service's version, `<package.json version>+<BUILD_ID>`. The build id is `BUILD_ID` when set (a CI build
 * number, an image tag), else the checkout's commit (seven hex digits), else `dev`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './project-root';

export function serviceVersion(env: NodeJS.ProcessEnv = process.env, root = projectRoot): string {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const build = env.BUILD_ID?.trim() || gitCommit(root)?.slice(0, 7) || 'dev';
  return `${pkg.version}+${build}`;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The commit checked out in `root`, read from `.git` itself (an image need not contain the git binary): HEAD, the
 * ref it names as a loose file, else that ref in packed-refs. A worktree's `.git` is a file naming its git
 * directory, whose refs live in the common directory. Undefined when any of it is missing or unreadable.
 */
export function gitCommit(root: string): string | undefined {
  try {
    const gitDir = resolveGitDir(path.join(root, '.git'));
    if (!gitDir) return undefined;
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (SHA.test(head)) return head;
    const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const commonFile = path.join(gitDir, 'commondir');
    const common = existsSync(commonFile) ? path.resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir;
    for (const dir of [gitDir, common]) {
      const loose = path.join(dir, ref);
      if (existsSync(loose)) {
        const sha = readFileSync(loose, 'utf8').trim();
        if (SHA.test(sha)) return sha;
      }
    }
    return packedRef(common, ref);
  } catch {
    return undefined;
  }
}

/** `.git` is the git directory, or (a worktree, a submodule) a file `gitdir: <path>` naming it. */
function resolveGitDir(dotGit: string): string | undefined {
  if (!existsSync(dotGit)) return undefined;
  if (statSync(dotGit).isDirectory()) return dotGit;
  const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  return named ? path.resolve(path.dirname(dotGit), named) : undefined;
}

function packedRef(common: string, ref: string): string | undefined {
  const file = path.join(common, 'packed-refs');
  if (!existsSync(file)) return undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [sha, name] = line.trim().split(' ');
    if (name === ref && SHA.test(sha)) return sha;
  }
  return undefined;
}
