import './progress-bar.css';

/**
 * An upload's progress: a bar with its percentage for assistive technology (role=progressbar) and in words.
 * `fraction` is 0 to 1.
 */
export function ProgressBar({ fraction, label, text }: { fraction: number; label: string; text: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div className="progress">
      <div
        className="progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span className="progress__fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress__text">
        {text} {percent}%
      </span>
    </div>
  );
}
