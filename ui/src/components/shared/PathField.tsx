import type { ComponentProps, ReactNode } from "react";
import { Field } from "./Field";
import { PathPicker } from "./PathPicker";

type Props = {
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  /** What the system's picker beside the field may choose, and the file kinds it offers. */
  pick: ComponentProps<typeof PathPicker>["pick"];
  filters?: ComponentProps<typeof PathPicker>["filters"];
  pickTestId: string;
  placeholder?: string;
  hint?: ReactNode;
  disabled?: boolean;
  autoFocus?: boolean;
  required?: boolean;
};

/** A path typed in a monospace field, or chosen with the system's picker beside it. */
export function PathField({ pick, filters, pickTestId, disabled, onChange, ...field }: Props) {
  return (
    <>
      <Field className="mono" spellCheck={false} disabled={disabled} onChange={onChange} {...field} />
      <PathPicker pick={pick} filters={filters} onPick={onChange} disabled={disabled} testId={pickTestId} />
    </>
  );
}
