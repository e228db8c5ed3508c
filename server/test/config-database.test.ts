import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

describe('DATABASE_URL', () => {
  it('selects SQLite in DATA_DIR when unset or empty', () => {
    expect(loadConfig({}).database).toEqual({ kind: 'sqlite' });
    expect(loadConfig({ DATABASE_URL: '' }).database).toEqual({ kind: 'sqlite' });
  });

  it('selects PostgreSQL for a postgres:// or postgresql:// URL, kept as given', () => {
    for (const url of [
      'postgres://campus:secret@db.internal:5432/campus',
      'postgresql://campus@127.0.0.1/campus?sslmode=require',
      'postgres:///campus?host=/var/run/postgresql',
    ])
      expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url });
  });

  it('refuses anything else without repeating the URL (it may hold a password)', () => {
    for (const url of [
      'mysql://u:hunter2@h/db',
      'sqlite:///data/db.sqlite',
      'not a url hunter2',
      'postgres:///db',
    ])
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('hunter2') as unknown }) as Error,
      );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://h/db' })).toThrow(/postgres:\/\//);
    expect(() => loadConfig({ DATABASE_URL: 'postgres:///db' })).toThrow(/host/);
  });
});
