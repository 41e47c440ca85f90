import type { ReactNode } from "react";

/** Says what is (not) here and, in `children`, what to do about it. */
export function EmptyState({ title, testId, children }: { title: string; testId?: string; children?: ReactNode }) {
  return (
    <div className="empty" data-testid={testId}>
      <strong>{title}</strong>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}
