/**
 * Sending one notification mail (issue 44): over SMTP through nodemailer when `SMTP_URL` is set (`smtp://` with
 * STARTTLS when the server offers it, `smtps://` for TLS from the start), else as a log line at info, so a service
 * without a mail server (the embedded default) shows what it would have sent. nodemailer loads on the first send.
 */
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { logger } from '../core/logger';

export interface Mail {
  to: { name: string; email: string };
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox row: a second delivery after a crash mid-send is recognisable as the same mail. */
  messageId: string;
}

export interface MailTransport { send: (mail: Mail) => Promise<void>; close: () => void }

/** Bounded: a mail server that stops answering fails the attempt, which is tried again later. */
const TIMEOUT_MS = 10_000;

export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  // Pooled: the connection (and its TLS handshake and greeting) serves the mails that follow, ~30 times the mails
  // per second of a connection per mail (docs/performance.md, issue 44).
  const open = () => (transporter ??= import('nodemailer').then((nodemailer) => nodemailer.createTransport({
    url: smtpUrl, pool: true, maxConnections: 2, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS,
    disableFileAccess: true, disableUrlAccess: true,
  } as SMTPTransport.Options, { from })));
  return {
    async send(mail) {
      await (await open()).sendMail({
        // nodemailer encodes display names and refuses line breaks in addresses: a name cannot add a header.
        to: { name: mail.to.name, address: mail.to.email },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
      });
    },
    close() {
      void transporter?.then((t) => t.close());
    },
  };
}

/** Without a mail server: what would have been sent, as a log line (the address and subject, not the body). */
export function logTransport(): MailTransport {
  return {
    async send(mail) {
      logger.info({ to: mail.to.email, subject: mail.subject, messageId: mail.messageId, link: /https?:\/\/\S+$/.exec(mail.text)?.[0] }, 'notification mail (no SMTP_URL: logged, not sent)');
    },
    close() {},
  };
}
