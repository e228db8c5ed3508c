const STEPS = ['Choose', 'Check', 'Submit'] as const;

/** The spec's 3-step indicator: 1 choose the document, 2 check it, 3 submit it. */
export function StepIndicator({ step }: { step: 1 | 2 | 3 }) {
  return (
    <ol className="upload-steps" aria-label="Progress">
      {STEPS.map((label, index) => {
        const number = index + 1;
        const state = number < step ? 'done' : number === step ? 'current' : 'todo';
        return (
          <li
            key={label}
            className={`upload-steps__step upload-steps__step--${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="upload-steps__number" aria-hidden="true">
              {state === 'done' ? '✓' : number}
            </span>
            <span className="upload-steps__label">
              {label}
              {state === 'done' ? <span className="visually-hidden"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
