/** The profile module's public surface: profile saving and the profile picture (issue 11). */
export {
  profileRoutes,
  PROFILE_PICTURE_PATH,
  PROFILE_SAVE_RATE,
  PROFILE_PICTURE_RATE,
  MANUAL_COLLEGE_RATE,
} from './routes';
export { avatarKey } from './picture';
