import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every message it receives, for tests to read codes from. */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  /** The newest 6-digit code mailed to `to` after `seen` earlier mails to that address. */
  async function codeFor(to: string, timeoutMs = 5000): Promise<string> {
    const address = to.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = mails.filter((m) => m.to.includes(address)).at(-1);
      const code = mail && /Subject: (\d{6}) is your Campus Talk/.exec(mail.raw)?.[1];
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`no code mailed to ${to}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    count: (to: string) => mails.filter((m) => m.to.includes(to.toLowerCase())).length,
    codeFor,
    /** Waits until `to` has received more than `count` mails. */
    async waitForCount(to: string, count: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.filter((m) => m.to.includes(to.toLowerCase())).length <= count) {
        if (Date.now() > deadline) throw new Error(`no new mail to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
