import pino from 'pino';

/** One logger for the process. Secrets never reach it: request bodies are not logged, and the token is redacted. */
export const logger = pino({
  level: process.env.LOG_LEVEL || (process.env.VITEST ? 'warn' : 'info'),
  redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.client_secret', '*.clientSecret'],
});
