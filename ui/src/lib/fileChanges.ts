/** A file the agent created, modified or deleted in its workspace. */
export type WorkspaceChange = { path: string; kind: "created" | "modified" | "deleted"; diff: string | null };

const KINDS: readonly string[] = ["created", "modified", "deleted"];

function isWorkspaceChange(value: unknown): value is WorkspaceChange {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.path === "string" &&
    typeof v.kind === "string" &&
    KINDS.includes(v.kind) &&
    (v.diff === null || v.diff === undefined || typeof v.diff === "string")
  );
}

/** The file changes of an attempt result (stored as untyped JSON); malformed entries are left out. */
export function parseWorkspaceChanges(value: unknown): WorkspaceChange[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isWorkspaceChange).map((c) => ({ path: c.path, kind: c.kind, diff: c.diff ?? null }));
}
