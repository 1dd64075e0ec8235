/** Socket and TLS error codes of Node, as a person reads them in a provider's error message. */

/** TLS failures the caller can fix (its certificate, key or truststore): a rejection, not an outage. */
export const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|CERT_|ERR_OSSL_|HOSTNAME_MISMATCH|ERR_TLS_CERT_ALTNAME)/;

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** `ECONNREFUSED` → `connection refused`; an unknown code stays as it is. */
export const networkReason = (code: string): string => REASONS[code] ?? code;
