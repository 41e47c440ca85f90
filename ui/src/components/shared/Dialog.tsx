import { useEffect, useRef, type ReactNode } from "react";
import { useFocusTrap } from "../../lib/useFocusTrap";

type Props = {
  title: string;
  onClose: () => void;
  closeTestId?: string;
  children: ReactNode;
};

/** A modal dialog that holds keyboard focus while open; Escape or the close button dismisses it. */
export function Dialog({ title, onClose, closeTestId, children }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  return (
    <div className="dialog-backdrop">
      <div className="dialog" ref={ref} role="dialog" aria-modal="true" aria-label={title}>
        <header className="dialog-header">
          <h2>{title}</h2>
          <button type="button" className="button-ghost" data-testid={closeTestId} onClick={onClose} aria-label="Close">
            Close
          </button>
        </header>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}
