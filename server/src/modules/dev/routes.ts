import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { DevMailbox } from '../../lib/mail/dev-mailbox';

/**
 * /dev/mailbox: the development inbox. Mounted only when lib/mail/mail-policy.ts allows it: no SMTP, not
 * production, and a loopback listener (or DEV_MAILBOX=1), since it shows every sign-up and reset code.
 */
export function devMailboxRoutes(mailbox: DevMailbox) {
  return new Hono()
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
