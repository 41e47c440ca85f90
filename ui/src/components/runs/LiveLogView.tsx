import { useLayoutEffect, useRef } from "react";
import type { LiveLog } from "../../lib/liveLog";

/** Pixels from the bottom within which the view keeps following new output. */
const FOLLOW_SLACK = 24;

/** A running trial's output; stays scrolled to the end unless the reader scrolls up. */
export function LiveLogView({ log }: { log: LiveLog | null }) {
  const ref = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  const text = log?.text ?? "";

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [text]);

  const onScroll = () => {
    const el = ref.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
  };

  return (
    <>
      {!log?.seeded ? (
        <p className="muted">Loading the output so far…</p>
      ) : (
        text === "" && <p className="muted">No output yet.</p>
      )}
      <pre ref={ref} className="live-log" data-testid="trial-log" onScroll={onScroll}>
        {text}
      </pre>
    </>
  );
}
