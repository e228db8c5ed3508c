import type { PickFilesOptions } from '@campus/protocol';

/** Opens the system file chooser through a detached <input type=file>; resolves [] when cancelled. */
export function pickFilesWithInput(options: PickFilesOptions): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = options.accept.join(',');
    input.multiple = options.multiple ?? false;
    input.hidden = true;
    const finish = (files: File[]) => {
      input.remove();
      resolve(files);
    };
    input.addEventListener('change', () => finish(Array.from(input.files ?? [])), { once: true });
    input.addEventListener('cancel', () => finish([]), { once: true });
    document.body.append(input);
    input.click();
  });
}
