import path from 'node:path';
import { idCardCamera } from './id-card';
import { startTurnServer } from './turn';

/** The fake camera's picture: the student ID of the camera test's student, written before browsers start. */
export const FAKE_CAMERA_FILE = path.resolve('test-results/fake-camera.y4m');
export const CAMERA_STUDENT = 'Kiran';

/** Returns the teardown: the TURN server started for the calls stops with the run. */
export default async function globalSetup(): Promise<() => void> {
  await idCardCamera(CAMERA_STUDENT, FAKE_CAMERA_FILE);
  const turn = await startTurnServer(path.resolve('test-results/turn'));
  return () => {
    turn?.kill();
  };
}
