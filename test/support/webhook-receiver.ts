/**
 * A webhook receiver on loopback for the notification tests: every POST it reads in full, verified as a Standard
 * Webhooks receiver does (the `standardwebhooks` library) against the secrets it is told, and its CloudEvent parsed.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Delivered { headers: http.IncomingHttpHeaders; body: string; event: any }
export interface TestReceiver {
  url: string;
  received: Delivered[];
  /** Whether `secret` alone verifies `d` (signature, id, timestamp). */
  verifies: (d: Delivered, secret: string) => boolean;
  /** The status answered to the next calls (204 unless set). */
  answer: (status: number) => void;
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<TestReceiver> {
  const received: Delivered[] = [];
  let status = 204;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, event: JSON.parse(body) });
      res.statusCode = status;
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    verifies: (d, secret) => {
      try {
        new Webhook(secret).verify(d.body, d.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    },
    answer: (s) => { status = s; },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
