import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs. Authorization headers, cookies, passwords and tokens are redacted wherever they appear,
 * so a careless `log.info({ req })` cannot leak a session.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.password',
        '*.newPassword',
        '*.token',
        'password',
        'newPassword',
        'token',
      ],
      censor: '[redacted]',
    },
  });
}
