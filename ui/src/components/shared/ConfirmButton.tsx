import { useState } from "react";

type Props = { label: string; testId: string; disabled?: boolean; onConfirm: () => void };

/** A small destructive button that asks once more (`<testId>-confirm`) before acting. */
export function ConfirmButton({ label, testId, disabled, onConfirm }: Props) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button-small"
        data-testid={testId}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button
        type="button"
        className="button-small button-danger"
        data-testid={`${testId}-confirm`}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Confirm
      </button>
      <button type="button" className="button-small" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
