/** How `npm run admin` (scripts/admin.ts) fails: each in one line, with its own exit code. */

/** A wrong invocation: said with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command that cannot do what was asked (an unknown e-mail, a taken name, a busy database): one line, exit code 1. */
export class AdminError extends Error {
  override name = 'AdminError';
}
