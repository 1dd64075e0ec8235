/**
 * `npm run fuzz -- [--requests N] [--seed S]`: the suite's fuzz test (test/integration/fuzz.test.ts) with a
 * bigger budget or a fixed seed, e.g. `npm run fuzz -- --requests 100000` for a long run or
 * `npm run fuzz -- --seed 1234 --requests 3000` to replay a CI failure. Exit code is vitest's.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { requests: { type: 'string', short: 'n' }, seed: { type: 'string', short: 's' } },
  strict: true,
});
const env = { ...process.env };
for (const [flag, name] of [['requests', 'FUZZ_REQUESTS'], ['seed', 'FUZZ_SEED']] as const) {
  const v = values[flag];
  if (v === undefined) continue;
  if (!/^\d+$/.test(v)) {
    console.error(`--${flag} must be a non-negative integer, not ${JSON.stringify(v)}`);
    process.exit(2);
  }
  env[name] = v;
}
const run = spawnSync('npx', ['vitest', 'run', 'test/integration/fuzz.test.ts'], { stdio: 'inherit', env });
process.exit(run.status ?? 1);
