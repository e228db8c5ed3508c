import { Hono, type Context } from 'hono';
import { html, raw } from 'hono/html';
import { SERVER_MSG } from '@campus/protocol';
import { peerAddress } from '../../lib/client-ip';
import type { DevMailbox } from '../../lib/mail/dev-mailbox';
import { isLoopbackHost } from '../../lib/mail/mail-policy';

/** Headers a proxy adds for the client it forwards: their presence means the request came from elsewhere. */
const FORWARDING_HEADERS = [
  'x-forwarded-for',
  'x-forwarded-host',
  'forwarded',
  'x-real-ip',
  'via',
  'cf-connecting-ip',
  'true-client-ip',
];

/**
 * A loopback listener is not enough: a reverse proxy on the same host (nginx, Caddy, a tunnel) connects from
 * 127.0.0.1 and hands the mailbox, and with it every reset code, to the internet. So each request must come
 * from a loopback peer and carry no forwarding header; anything else is answered as if nothing were here.
 */
function fromThisMachine(c: Context): boolean {
  if (FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined)) return false;
  return isLoopbackHost(peerAddress(c));
}

/**
 * /dev/mailbox: the development inbox. Mounted only when lib/mail/mail-policy.ts allows it: no SMTP, not
 * production, and a loopback listener (or DEV_MAILBOX=1), since it shows every sign-up and reset code.
 * `localOnly` (a loopback listener) also refuses requests that did not come from this machine directly;
 * DEV_MAILBOX=1 on another address is the operator's explicit choice to serve it to the network.
 */
export function devMailboxRoutes(mailbox: DevMailbox, { localOnly }: { localOnly: boolean }) {
  return new Hono()
    .use(async (c, next) => {
      if (localOnly && !fromThisMachine(c)) return c.json({ error: SERVER_MSG.notFound }, 404);
      await next();
    })
    .get('/mailbox.json', (c) => c.json({ mails: mailbox.list() }))
    .get('/mailbox', (c) => {
      const mails = mailbox.list();
      const items = mails.map(
        (m) =>
          html`<article>
            <header><strong>${m.subject}</strong><span>to ${m.to} · ${m.sentAt}</span></header>
            <pre>${m.text}</pre>
          </article>`,
      );
      return c.html(
        html`<!doctype html>
          <html lang="en">
            <head>
              <meta charset="utf-8" />
              <meta name="viewport" content="width=device-width, initial-scale=1" />
              <title>Dev mailbox · Campus Talk</title>
              <link rel="stylesheet" href="/dev/mailbox.css" />
            </head>
            <body>
              <h1>Dev mailbox</h1>
              <p>Mails the server would have sent. Set SMTP_URL to deliver them for real.</p>
              ${mails.length ? items : raw('<p class="empty">No mail yet.</p>')}
            </body>
          </html>`,
      );
    })
    .get('/mailbox.css', (c) =>
      c.body(
        `body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f2330}
article{border:1px solid #d9dce5;border-radius:10px;padding:12px 16px;margin:12px 0}
header{display:flex;flex-direction:column;gap:2px}header span{color:#606679;font-size:.875rem}
pre{white-space:pre-wrap;font:inherit}.empty{color:#606679}`,
        200,
        { 'content-type': 'text/css; charset=utf-8' },
      ),
    );
}
