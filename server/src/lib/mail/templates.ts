import { OTP_TTL_MS } from '@campus/protocol';
import type { Mail } from './mailer';

const minutes = OTP_TTL_MS / 60_000;

function codeMail(to: string, subject: string, lead: string, code: string): Mail {
  const text = `${lead}\n\nYour code: ${code}\n\nIt expires in ${minutes} minutes. If you did not ask for it, you can ignore this mail.\n\nCampus Talk`;
  const html = `<div style="font-family:system-ui,sans-serif;max-width:480px">
<p>${escapeHtml(lead)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px">${code}</p>
<p>It expires in ${minutes} minutes. If you did not ask for it, you can ignore this mail.</p>
<p>Campus Talk</p></div>`;
  return { to, subject, text, html };
}

export function signupCodeMail(to: string, firstName: string, code: string): Mail {
  return codeMail(
    to,
    `${code} is your Campus Talk verification code`,
    `Hi ${firstName}, welcome to Campus Talk! Enter this code to finish creating your account.`,
    code,
  );
}

export function resetCodeMail(to: string, code: string): Mail {
  return codeMail(
    to,
    `${code} is your Campus Talk password reset code`,
    'Use this code to reset your Campus Talk password.',
    code,
  );
}

/**
 * To the owner of an address someone tried to sign up with: the sign-up answered as for a new address
 * (so it reveals no account), and this mail is how the owner learns of it. No code: nothing to verify.
 */
export function signupAttemptMail(to: string, publicUrl: string): Mail {
  const subject = 'Someone tried to sign up to Campus Talk with your address';
  const lead = `Someone tried to create a Campus Talk account with ${to}, which already has one.`;
  const advice =
    'If it was you, sign in, or reset your password if you forgot it. If it was not you, you can ignore this mail: nothing was changed.';
  const login = `${publicUrl}/login`;
  const text = `${lead}\n\n${advice}\n\nSign in: ${login}\n\nCampus Talk`;
  const html = `<div style="font-family:system-ui,sans-serif;max-width:480px">
<p>${escapeHtml(lead)}</p>
<p>${escapeHtml(advice)}</p>
<p><a href="${escapeHtml(login)}">Sign in</a></p>
<p>Campus Talk</p></div>`;
  return { to, subject, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
