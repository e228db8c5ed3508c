import { describe, expect, it } from 'vitest';
import { APP_VERSION_ARG, SERVER_URL_ARG } from '@campus/protocol';
import { createWindowOptions } from '../src/main/window-options';

const input = {
  preloadPath: '/app/out/preload/index.cjs',
  serverUrl: 'https://talk.campus.example',
  appVersion: '1.4.2',
  darkBackground: false,
  devTools: false,
};

describe('main window options', () => {
  it('isolates the renderer: no Node, sandboxed, context-isolated, same-origin policy kept', () => {
    const prefs = createWindowOptions(input).webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      devTools: false,
    });
  });

  it('loads the CommonJS preload and hands it the server URL and version on argv', () => {
    const prefs = createWindowOptions(input).webPreferences;
    expect(prefs?.preload).toBe('/app/out/preload/index.cjs');
    expect(prefs?.additionalArguments).toEqual([
      `${SERVER_URL_ARG}https://talk.campus.example`,
      `${APP_VERSION_ARG}1.4.2`,
    ]);
  });

  it('stays hidden until the first paint, on the theme background', () => {
    expect(createWindowOptions(input)).toMatchObject({ show: false, backgroundColor: '#f6f7fb' });
    expect(createWindowOptions({ ...input, darkBackground: true }).backgroundColor).toBe('#0f1115');
  });
});
