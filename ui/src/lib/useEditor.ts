import { useCallback, useState } from "react";

export type Editor<T> = {
  /** The item being edited; null while the form adds a new one. */
  editing: T | null;
  /** Changes whenever the form must start afresh: use it as the form's React key. */
  formKey: number;
  /** Starts editing `item`, or (null) a new one, with a fresh form. */
  open: (item: T | null) => void;
};

/** The state of a section's add-or-edit form. */
export function useEditor<T>(): Editor<T> {
  const [state, setState] = useState<{ editing: T | null; formKey: number }>({ editing: null, formKey: 0 });
  const open = useCallback((editing: T | null) => setState((s) => ({ editing, formKey: s.formKey + 1 })), []);
  return { ...state, open };
}
