/** A configuration value the service cannot start with; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
