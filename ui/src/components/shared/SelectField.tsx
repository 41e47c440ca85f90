import type { ReactNode } from "react";

type Props<T extends string> = {
  label: string;
  testId: string;
  /** Each option's value and text. */
  options: readonly (readonly [T, string])[];
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
  hint?: ReactNode;
};

/** A labelled drop-down of a form choosing one of `options`. */
export function SelectField<T extends string>({ label, testId, options, value, onChange, disabled, hint }: Props<T>) {
  return (
    <label className="field">
      <span>{label}</span>
      <select
        data-testid={testId}
        value={value}
        // Only the options' values can be chosen.
        onChange={(e) => onChange(e.target.value as T)}
        disabled={disabled}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
      {hint && <small className="muted">{hint}</small>}
    </label>
  );
}
