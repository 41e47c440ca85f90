import type { ReactNode } from "react";
import { EmptyState } from "./EmptyState";

/** Says plainly that a feature does not exist yet, and what it will do. */
export function NotBuiltNotice({ children }: { children: ReactNode }) {
  return (
    <EmptyState title="Not built yet." testId="not-built">
      {children}
    </EmptyState>
  );
}

/** A whole page for a section that does not exist yet. */
export function NotBuiltPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <header className="page-header">
        <h1>{title}</h1>
      </header>
      <NotBuiltNotice>{children}</NotBuiltNotice>
    </>
  );
}
