/** A progress bar; indeterminate while the total is not known (0). */
export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const known = total > 0;
  const percent = known ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div
      className={`progress ${known ? "" : "progress-indeterminate"}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? total : undefined}
      aria-valuenow={known ? done : undefined}
    >
      <div className="progress-fill" style={known ? { width: `${percent}%` } : undefined} />
    </div>
  );
}
