import type { ReactNode, TextareaHTMLAttributes } from "react";

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange"> & {
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
};

/** A labelled multi-line text input of a form. */
export function TextAreaField({ label, testId, value, onChange, hint, ...textarea }: Props) {
  return (
    <label className="field">
      <span>{label}</span>
      <textarea data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)} {...textarea} />
      {hint && <small className="muted">{hint}</small>}
    </label>
  );
}
