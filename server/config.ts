/** Runtime configuration read once from the environment (CONTRACT §1.1). */
export interface Config {
  port: number;
  basePath: string;
  /** Set when an external Keycloak-style IdP is used; unset → the embedded issuer serves `{publicUrl}/auth`. */
  externalAuthUrl?: string;
  publicUrl?: string;
  databaseUrl?: string;
  dataDir: string;
  bootstrapTenant: string;
  bootstrapAdminEmail: string;
  bootstrapAdminPassword?: string;
  maxBodyBytes: number;
  /** Validate every response against the OpenAPI document (switched on in tests). */
  validateResponses: boolean;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: env.PORT ? Number(env.PORT) : 8080,
    basePath: env.BASE_PATH || '/api',
    externalAuthUrl: env.AUTH_URL ? env.AUTH_URL.replace(/\/+$/, '') : undefined,
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || './.data',
    bootstrapTenant: env.BOOTSTRAP_TENANT || 'demo',
    bootstrapAdminEmail: env.BOOTSTRAP_ADMIN_EMAIL || 'admin@demo.local',
    bootstrapAdminPassword: env.BOOTSTRAP_ADMIN_PASSWORD || undefined,
    maxBodyBytes: env.MAX_BODY_BYTES ? Number(env.MAX_BODY_BYTES) : 5 * 1024 * 1024,
    validateResponses: env.VALIDATE_RESPONSES === '1' || env.VALIDATE_RESPONSES === 'true',
    logLevel: env.LOG_LEVEL || 'info',
  };
}
