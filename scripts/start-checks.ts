/**
 * What `npm start` checks before it touches the database: a first start that bootstrapped its admin and then could
 * not open its port would never show that admin's password.
 */
import net from 'node:net';
import type { Config } from '../core/config';
import { checkEncryptionKey } from '../core/secret-box';

export async function preflight(config: Config): Promise<void> {
  checkEncryptionKey(config);
  if (config.port !== 0) await checkPortFree(config.port);
}

/** Opens and closes the port as the server will (all interfaces); EADDRINUSE or EACCES is thrown as listen throws it. */
function checkPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve()));
  });
}
