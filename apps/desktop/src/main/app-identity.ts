/**
 * electron-builder's appId. Windows files notifications and the taskbar entry under this id, so an
 * unpackaged run must claim the same one the installer registers.
 */
export const APP_USER_MODEL_ID = 'app.campustalk.desktop';
