import { useState } from "react";
import { formatCount } from "../../lib/format";
import { clipText } from "../../lib/trajectory";

type Props = { text: string; maxChars: number; maxLines: number; className: string; testId?: string; open?: boolean };

/** Preformatted text cut to its start when long, with a button to expand it; `open` expands or clips it from outside. */
export function ClippedText({ text, maxChars, maxLines, className, testId, open }: Props) {
  const [expanded, setExpanded] = useState(open ?? false);
  // A change of `open` from outside expands or clips the text (adjusted while rendering, not in an effect).
  const [seenOpen, setSeenOpen] = useState(open);
  if (open !== seenOpen) {
    setSeenOpen(open);
    if (open !== undefined) setExpanded(open);
  }
  const clipped = clipText(text, maxChars, maxLines);
  const cut = clipped.hidden > 0 && !expanded;
  return (
    <>
      <pre className={className} data-testid={testId} data-clipped={cut ? "true" : undefined}>
        {cut ? `${clipped.text}…` : text}
      </pre>
      {clipped.hidden > 0 && (
        <button
          type="button"
          className="link clip-toggle"
          data-testid="traj-expand"
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? "Show less" : `Show all (${formatCount(clipped.hidden)} more characters)`}
        </button>
      )}
    </>
  );
}
