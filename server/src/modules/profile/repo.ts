import { sql } from '../../realtime/transaction';
import type { UserRow } from '../users';

export const userById = sql<UserRow>('SELECT * FROM users WHERE id = ?');

export const setCourse = sql('UPDATE users SET course = ? WHERE id = ?');
export const setBio = sql('UPDATE users SET bio = ? WHERE id = ?');
export const setYear = sql('UPDATE users SET year = ? WHERE id = ?');
export const setCollege = sql('UPDATE users SET college = ? WHERE id = ?');
export const setInterests = sql('UPDATE users SET interests = ? WHERE id = ?');
export const setSkillLevel = sql('UPDATE users SET skill_level = ? WHERE id = ?');
export const setBranch = sql('UPDATE users SET branch = ? WHERE id = ?');
export const setPictureUrl = sql('UPDATE users SET profile_picture_url = ? WHERE id = ?');
export const pictureUrlOf = sql<{ profile_picture_url: string | null }>(
  'SELECT profile_picture_url FROM users WHERE id = ?',
);
