import { Icon } from '../../components/Icon';

const TIPS = [
  { title: 'Be Respectful', text: 'Treat everyone the way you would like to be treated.' },
  { title: 'Be Open', text: 'Curiosity makes the best conversations: ask, listen, share.' },
  { title: 'Be Patient', text: 'Not every chat clicks at once. Give it a moment.' },
] as const;

/** The spec's tips and its Safety First notice. */
export function TalkTips() {
  return (
    <section className="talk-section" aria-labelledby="talk-tips-title">
      <h2 className="talk-section__title" id="talk-tips-title">
        Tips for great conversations
      </h2>
      <ul className="talk-tips">
        {TIPS.map((tip) => (
          <li key={tip.title} className="talk-tip">
            <span className="talk-tip__title">{tip.title}</span>
            <span className="talk-tip__text">{tip.text}</span>
          </li>
        ))}
      </ul>
      <aside className="talk-safety" aria-labelledby="talk-safety-title">
        <Icon name="shield" size={22} />
        <div>
          <h3 className="talk-safety__title" id="talk-safety-title">
            Safety First
          </h3>
          <p className="talk-safety__text">
            Never share personal info (phone, address, socials). End any conversation if you feel
            uncomfortable.
          </p>
        </div>
      </aside>
    </section>
  );
}
