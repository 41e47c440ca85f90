// Reading typed form fields into a request, collecting every problem on the way.

/** A form read into a value, or the problems that stop it. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** The trimmed text, or null when it is blank. */
export function emptyToNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : trimmed;
}

/** The whole number typed in a field if it is one from `min` to `max`, else null. */
export function parseWhole(text: string, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : null;
}

/**
 * Collects problems while a form is read: each reader returns a usable placeholder for a bad field
 * so that reading goes on, and `done` discards the value if anything was wrong.
 */
export function formReader() {
  const problems: string[] = [];
  return {
    check(ok: boolean, problem: string) {
      if (!ok) problems.push(problem);
    },
    whole(text: string, label: string, min: number, max?: number): number {
      const value = parseWhole(text, min, max);
      const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
      if (value === null) problems.push(`${label} must be a whole number ${range}.`);
      return value ?? min;
    },
    done<T>(value: T): Parsed<T> {
      return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
    },
  };
}
