import { DESKTOP_BRIDGE_KEY } from '@campus/protocol';
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopBridge } from './bridge';

// contextBridge copies the object into the page's world: the page can call these functions, but cannot
// reach the preload's scope, ipcRenderer, or anything Electron behind them.
contextBridge.exposeInMainWorld(DESKTOP_BRIDGE_KEY, createDesktopBridge(ipcRenderer, process.argv));
