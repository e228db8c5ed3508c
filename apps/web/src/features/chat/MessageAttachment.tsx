import { attachmentLabel, type AttachmentType } from '@campus/protocol';
import { useSignedUrl } from './useSignedUrl';

interface Props {
  attachmentUrl: string;
  attachmentType: AttachmentType | null;
  content: string;
}

/** An image (click opens it in a new tab) or a file link, always from our own signed URL. */
export function MessageAttachment({ attachmentUrl, attachmentType, content }: Props) {
  const url = useSignedUrl(attachmentUrl);
  const label = attachmentLabel(content);

  if (attachmentType === 'image') {
    return url ? (
      <a className="message__image-link" href={url} target="_blank" rel="noopener noreferrer">
        <img className="message__image" src={url} alt={label} loading="lazy" />
      </a>
    ) : (
      <span className="message__file message__file--pending">{label}</span>
    );
  }
  return url ? (
    <a className="message__file" href={url} target="_blank" rel="noopener noreferrer" download={label}>
      <span aria-hidden="true">📎</span> {label}
    </a>
  ) : (
    <span className="message__file message__file--pending">
      <span aria-hidden="true">📎</span> {label}
    </span>
  );
}
