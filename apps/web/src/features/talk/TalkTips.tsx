import { Icon } from '../../components/Icon';

export interface Tip {
  title: string;
  text: string;
}

const TIPS: readonly Tip[] = [
  { title: 'Be Respectful', text: 'Treat everyone the way you would like to be treated.' },
  { title: 'Be Open', text: 'Curiosity makes the best conversations: ask, listen, share.' },
  { title: 'Be Patient', text: 'Not every chat clicks at once. Give it a moment.' },
];

/** The spec's tips and its Safety First notice. */
export function TalkTips() {
  return (
    <TipsSection
      idPrefix="talk"
      title="Tips for great conversations"
      tips={TIPS}
      safetyText="Never share personal info (phone, address, socials). End any conversation if you feel uncomfortable."
    />
  );
}

/**
 * A screen's tips with the Safety First notice below them (Talk home, Focused Talk options); `idPrefix`
 * keeps the headings' ids, which name the section and the notice, unique on the page.
 */
export function TipsSection({
  idPrefix,
  title,
  tips,
  safetyText,
}: {
  idPrefix: string;
  title: string;
  tips: readonly Tip[];
  safetyText: string;
}) {
  const titleId = `${idPrefix}-tips-title`;
  const safetyId = `${idPrefix}-safety-title`;
  return (
    <section className="talk-section" aria-labelledby={titleId}>
      <h2 className="talk-section__title" id={titleId}>
        {title}
      </h2>
      <ul className="talk-tips">
        {tips.map((tip) => (
          <li key={tip.title} className="talk-tip">
            <span className="talk-tip__title">{tip.title}</span>
            <span className="talk-tip__text">{tip.text}</span>
          </li>
        ))}
      </ul>
      <aside className="talk-safety" aria-labelledby={safetyId}>
        <Icon name="shield" size={22} />
        <div>
          <h3 className="talk-safety__title" id={safetyId}>
            Safety First
          </h3>
          <p className="talk-safety__text">{safetyText}</p>
        </div>
      </aside>
    </section>
  );
}
