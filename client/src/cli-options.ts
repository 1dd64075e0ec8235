/** The options of the CLI (./cli.ts), for node:util parseArgs; a test parses the documented recipes with them. */
export const CLI_OPTIONS = {
  schema: { type: 'string' },
  mode: { type: 'string' },
  type: { type: 'string' },
  environment: { type: 'string', multiple: true },
  format: { type: 'string', default: 'text' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;
