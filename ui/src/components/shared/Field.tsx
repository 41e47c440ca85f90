import type { InputHTMLAttributes, ReactNode } from "react";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> & {
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
};

/** A labelled text (or number) input of a form. */
export function Field({ label, testId, value, onChange, hint, ...input }: Props) {
  return (
    <label className="field">
      <span>{label}</span>
      <input data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)} {...input} />
      {hint && <small className="muted">{hint}</small>}
    </label>
  );
}
