import { useEffect, useRef } from 'react';

/** A <video> or <audio> playing a MediaStream (srcObject is a property, not an attribute). */
export function StreamMedia({
  stream,
  kind,
  muted = false,
  className,
  testId,
  label,
  blurred,
}: {
  stream: MediaStream | null;
  kind: 'video' | 'audio';
  muted?: boolean;
  className?: string;
  testId: string;
  label?: string;
  /** Shown blurred (random video until both reveal): the attribute the stylesheet and tests read. */
  blurred?: boolean;
}) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.srcObject = stream;
    return () => {
      element.srcObject = null;
    };
  }, [stream]);
  if (kind === 'audio') {
    return <audio ref={ref} autoPlay hidden data-testid={testId} />;
  }
  return (
    <video
      ref={ref}
      className={className}
      autoPlay
      playsInline
      muted={muted}
      data-testid={testId}
      aria-label={label}
      data-blurred={blurred === undefined ? undefined : String(blurred)}
    />
  );
}
