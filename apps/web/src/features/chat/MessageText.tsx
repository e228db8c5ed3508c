import { tokenizeLinks } from '@campus/protocol';

/**
 * Message text with its links as anchors. The text is never parsed as HTML: React renders every piece as a
 * text node, and tokenizeLinks only yields http(s) targets, so '<script>' or 'javascript:' stay plain text.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="message__text">
      {tokenizeLinks(text).map((token, index) =>
        token.kind === 'link' ? (
          <a key={index} href={token.href} target="_blank" rel="noopener noreferrer">
            {token.text}
          </a>
        ) : (
          <span key={index}>{token.text}</span>
        ),
      )}
    </p>
  );
}
