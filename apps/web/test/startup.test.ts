import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@campus/protocol';
import { startupRoute } from '../src/app/startup';
import { THEME_COLORS } from '../src/features/theme/theme';
import script from '../public/theme-init.js?raw';

describe('the start-up query', () => {
  it('opens a confession', () => {
    expect(startupRoute('?action=open_confession&confessionId=c-42')).toBe('/confessions?confessionId=c-42');
  });

  it('only logs open_chat', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    expect(startupRoute('?action=open_chat&partnerId=p-7')).toBeNull();
    expect(info).toHaveBeenCalledWith(expect.stringContaining('open_chat'), 'p-7');
    info.mockRestore();
  });

  it('ignores anything else', () => {
    expect(startupRoute('')).toBeNull();
    expect(startupRoute('?action=delete_everything')).toBeNull();
  });
});

describe('the pre-paint theme script', () => {
  it('reads the same storage key and colours as the app', () => {
    expect(script).toContain(`'${STORAGE_KEYS.theme}'`);
    expect(script).toContain(THEME_COLORS.dark);
    expect(script).toContain(THEME_COLORS.light);
  });
});
