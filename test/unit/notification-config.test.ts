import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config';

describe('notification settings', () => {
  it('log mails instead of sending them, from a default sender, looking every second, unless set', () => {
    expect(loadConfig({}).notifications).toEqual({
      smtpUrl: undefined, mailFrom: 'Streaming platform <platform@localhost>', intervalMs: 1000, leaseMs: 60_000, webhookAllowHttp: false, webhookAllowPrivate: false,
    });
  });

  it('take an smtp:// or smtps:// URL, a sender and an interval (0: this process delivers none)', () => {
    const n = loadConfig({ SMTP_URL: ' smtps://u:p@mail.example.com:465 ', MAIL_FROM: 'Platform <p@example.com>', NOTIFY_INTERVAL_MS: '0' }).notifications;
    expect(n).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', mailFrom: 'Platform <p@example.com>', intervalMs: 0 });
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', NOTIFY_INTERVAL_MS: '250' }).notifications.intervalMs).toBe(250);
  });

  it.each([
    ['http://mail.example.com', /SMTP_URL must start with smtp:\/\/ or smtps:\/\/, not http:\/\//],
    ['mail.example.com:25', /SMTP_URL must (be a URL|start with smtp)/],
    ['not a url at all', /SMTP_URL must be a URL/],
  ])('refuse SMTP_URL %j at start, naming the setting and never echoing it', (value, message) => {
    let error: unknown;
    try {
      loadConfig({ SMTP_URL: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuse an interval that is not a number of milliseconds', () => {
    expect(() => loadConfig({ NOTIFY_INTERVAL_MS: 'soon' })).toThrow(/NOTIFY_INTERVAL_MS/);
  });

  it('hold a claim for NOTIFY_LEASE_MS and keep webhooks to public https endpoints unless switched', () => {
    const n = loadConfig({ NOTIFY_LEASE_MS: '1500', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: ' TRUE ' }).notifications;
    expect(n).toMatchObject({ leaseMs: 1500, webhookAllowHttp: true, webhookAllowPrivate: true });
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: '0' }).notifications).toMatchObject({ webhookAllowHttp: false, webhookAllowPrivate: false });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes please' })).toThrow(/WEBHOOK_ALLOW_PRIVATE must be true or false/);
    expect(() => loadConfig({ NOTIFY_LEASE_MS: '0' })).toThrow(/NOTIFY_LEASE_MS/);
  });

  it('never show the password of SMTP_URL in a refusal', () => {
    expect(() => loadConfig({ SMTP_URL: 'ftp://user:secret-pw@mail.example.com' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret-pw') }));
  });
});
