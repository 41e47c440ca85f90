import type { ReactNode } from "react";
import type { SkillSummary } from "../../bindings/SkillSummary";

type Props = {
  label: string;
  testId: string;
  options: [number, string][];
  value: number[];
  onChange: (value: number[]) => void;
  disabled?: boolean;
  hint?: ReactNode;
};

/** A labelled list box choosing any number of ids. */
export function MultiSelect({ label, testId, options, value, onChange, disabled, hint }: Props) {
  return (
    <label className="field">
      <span>{label}</span>
      <select
        multiple
        data-testid={testId}
        value={value.map(String)}
        onChange={(e) => onChange(Array.from(e.target.selectedOptions, (o) => Number(o.value)))}
        disabled={disabled || options.length === 0}
        size={Math.min(Math.max(options.length, 3), 8)}
      >
        {options.map(([id, text]) => (
          <option key={id} value={id}>
            {text}
          </option>
        ))}
      </select>
      {hint && <small className="muted">{hint}</small>}
    </label>
  );
}

/** The skills' latest versions as options: "pdf v3". */
export function skillOptions(skills: SkillSummary[]): [number, string][] {
  return skills.map((s) => [s.version_id, `${s.name} v${s.version}`]);
}
