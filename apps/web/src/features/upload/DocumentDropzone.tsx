import { useState, type DragEvent } from 'react';
import { DOCUMENT_TYPES } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { usePlatform } from '../../platform';

interface Props {
  disabled: boolean;
  onFile(file: File): void;
  onTakePhoto(): void;
}

/** Drop a file here, browse for one (through the Platform's picker), or take a photo. */
export function DocumentDropzone({ disabled, onFile, onTakePhoto }: Props) {
  const platform = usePlatform();
  const [over, setOver] = useState(false);

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    if (disabled || !event.dataTransfer.types.includes('Files')) return;
    // Without this the browser would open the dropped file instead of handing it over.
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  }

  async function browse() {
    const [file] = await platform.pickFiles({ accept: [...DOCUMENT_TYPES] });
    if (file) onFile(file);
  }

  return (
    <div
      className={`upload-drop${over ? ' upload-drop--over' : ''}`}
      data-testid="dropzone"
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <span className="upload-card__icon">
        <Icon name="shield" size={28} />
      </span>
      <p className="upload-card__title">Drag and drop your student ID here</p>
      <p className="upload-card__text">A photo (JPEG, PNG or WebP) or a PDF, up to 2 MB.</p>
      <div className="upload-drop__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={disabled}
          onClick={() => void browse()}
        >
          Browse files
        </button>
        <button type="button" className="button button--secondary" disabled={disabled} onClick={onTakePhoto}>
          Take Photo
        </button>
      </div>
    </div>
  );
}
