type Props = { offset: number; shown: number; total: number; pageSize: number; onOffset: (offset: number) => void };

/** "1–50 of 322" with buttons to the previous and next pages of a long list. */
export function Pager({ offset, shown, total, pageSize, onOffset }: Props) {
  if (total <= shown && offset === 0) return null;
  return (
    <div className="toolbar pager" data-testid="pager">
      <button
        type="button"
        data-testid="pager-previous"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - pageSize))}
      >
        ← Previous
      </button>
      <span className="muted" data-testid="pager-range">
        {shown === 0 ? 0 : offset + 1}–{offset + shown} of {total.toLocaleString("en")}
      </span>
      <button
        type="button"
        data-testid="pager-next"
        disabled={offset + shown >= total}
        onClick={() => onOffset(offset + pageSize)}
      >
        Next →
      </button>
    </div>
  );
}
