type Props = {
  testId: string;
  busy: boolean;
  /** Disables the button while not busy, e.g. until a required value is entered. */
  disabled?: boolean;
  label: string;
  busyLabel: string;
};

/** The actions row of a form with its one primary submit button, relabelled while the form is busy. */
export function SubmitActions({ testId, busy, disabled = false, label, busyLabel }: Props) {
  return (
    <div className="form-actions">
      <button type="submit" className="button-primary" data-testid={testId} disabled={busy || disabled}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
