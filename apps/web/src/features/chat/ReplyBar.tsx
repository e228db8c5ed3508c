import { replyPreview } from '@campus/protocol';
import { Icon } from '../../components/Icon';

/** Above the composer while replying: who, a 40-character preview, and a way out. */
export function ReplyBar({
  author,
  content,
  onClose,
}: {
  author: string;
  content: string;
  onClose: () => void;
}) {
  return (
    <div className="reply-bar" role="status">
      <div className="reply-bar__body">
        <span className="reply-bar__title">Replying to {author}</span>
        <span className="reply-bar__preview">{replyPreview(content)}</span>
      </div>
      <button type="button" className="icon-button" aria-label="Cancel reply" onClick={onClose}>
        <Icon name="close" size={18} />
      </button>
    </div>
  );
}
