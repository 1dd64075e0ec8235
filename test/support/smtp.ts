/**
 * A real SMTP server on loopback for the notification tests (smtp-server, from the nodemailer project): what it
 * received, per message its envelope recipients and raw text; recipients it refuses, as a missing mailbox.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface Received { to: string[]; raw: string }
export interface TestSmtp { url: string; received: Received[]; refused: Set<string>; close: () => Promise<void> }

export async function startSmtp(): Promise<TestSmtp> {
  const received: Received[] = [];
  const refused = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onRcptTo(address, _session, callback) {
      callback(refused.has(address.address) ? Object.assign(new Error('550 no such mailbox'), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, refused, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** A header of a raw message, unfolded (RFC 5322: a line break before white space is removed). */
export const headerOf = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw.replace(/\r?\n(?=[ \t])/g, ''))?.[1]?.trim();

/** The message's text as a reader sees it: quoted-printable soft line breaks joined and its escapes decoded. */
export const bodyOf = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
