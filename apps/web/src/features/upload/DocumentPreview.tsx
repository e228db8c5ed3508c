import type { OcrResult } from '@campus/protocol';
import { Spinner } from '../../components/Spinner';
import { formatBytes, isPdf } from './prepare-file';

/** The card's fields as the text recognition read them, in the order a reviewer reads a card. */
export const FIELD_LABELS: [keyof OcrResult, string][] = [
  ['nama', 'Name'],
  ['nim', 'Student ID (NIM)'],
  ['kampus', 'University'],
  ['jurusan', 'Faculty / Major'],
];

export function RecognizedFields({ result, label }: { result: OcrResult; label: string }) {
  return (
    <dl className="upload-fields" aria-label={label}>
      {FIELD_LABELS.map(([key, name]) => (
        <div key={key} className="upload-fields__row">
          <dt>{name}</dt>
          <dd>{result[key].trim() || <span className="upload-fields__missing">Not read</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

interface Props {
  file: File;
  /** The picture's object URL; null for a PDF. */
  preview: string | null;
  checking: boolean;
  busy: boolean;
  onRemove(): void;
}

/** The chosen document: the picture itself, or a file card for a PDF; Remove starts over. */
export function DocumentPreview({ file, preview, checking, busy, onRemove }: Props) {
  return (
    <div className="upload-preview">
      {isPdf(file) ? (
        <div className="upload-preview__file">
          <span className="upload-preview__badge" aria-hidden="true">
            PDF
          </span>
          <span className="upload-preview__name">{file.name}</span>
        </div>
      ) : preview ? (
        <img className="upload-preview__image" src={preview} alt="Your student ID" />
      ) : null}
      <div className="upload-preview__meta">
        <span>
          {file.name} · {formatBytes(file.size)}
        </span>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={busy}
          onClick={onRemove}
        >
          Remove
        </button>
      </div>
      {checking ? (
        <p className="upload-preview__checking" role="status">
          <Spinner /> Reading your student ID…
        </p>
      ) : null}
    </div>
  );
}
