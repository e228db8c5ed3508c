import type { Logger } from '../logger';
import type { Mail, Mailer } from './mailer';

export interface StoredMail extends Mail {
  id: number;
  sentAt: string;
}

const KEEP = 200;

/**
 * Development stand-in for SMTP: mails are kept in memory (newest first) for /dev/mailbox and printed to
 * the log, so a newcomer can sign up without a mail server. Never used in production.
 */
export class DevMailbox implements Mailer {
  private mails: StoredMail[] = [];
  private nextId = 1;

  constructor(private readonly log: Logger) {}

  async send(mail: Mail): Promise<void> {
    const stored = { ...mail, id: this.nextId++, sentAt: new Date().toISOString() };
    this.mails = [stored, ...this.mails].slice(0, KEEP);
    this.log.info(
      { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
      'dev mailbox: mail delivered',
    );
  }

  list(): readonly StoredMail[] {
    return this.mails;
  }

  close(): void {}
}
