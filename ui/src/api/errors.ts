import type { AppError } from "../bindings/AppError";
import type { ErrorCode } from "../bindings/ErrorCode";

/** Keyed by ErrorCode so the compiler rejects a missing or unknown code. */
const ERROR_CODE_SET: Record<ErrorCode, true> = {
  not_found: true,
  invalid_input: true,
  invalid_skill: true,
  unsafe_archive: true,
  too_large: true,
  io: true,
  database: true,
  git: true,
  conflict: true,
  engine: true,
  internal: true,
};

/** Every error code the back end can reject with. */
export const ERROR_CODES = Object.keys(ERROR_CODE_SET) as readonly ErrorCode[];

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * Turns whatever a rejected `invoke` produced into an AppError.
 * The back end rejects with `{ code, message }`; Tauri itself rejects with a
 * plain string (e.g. an unknown command), and JS failures throw Errors.
 */
export function toAppError(raw: unknown): AppError {
  if (raw !== null && typeof raw === "object" && "code" in raw && "message" in raw) {
    const { code, message } = raw as { code: unknown; message: unknown };
    return { code: isErrorCode(code) ? code : "internal", message: String(message) };
  }
  if (raw instanceof Error) return { code: "internal", message: raw.message };
  if (typeof raw === "string") return { code: "internal", message: raw };
  return { code: "internal", message: JSON.stringify(raw) ?? String(raw) };
}

export type ErrorDescription = {
  /** Short heading, e.g. "Unsafe archive". */
  title: string;
  /** What happened, including the back end's message. */
  detail: string;
  /** What the user can do about it. */
  action: string;
};

/** The one place that maps an error code to a human message and advice. */
export function describeError(error: AppError): ErrorDescription {
  const m = error.message.trim().replace(/\.$/, "");
  switch (error.code) {
    case "not_found":
      return {
        title: "Not found",
        detail: `The requested item does not exist: ${m}.`,
        action:
          "The message says what is missing and, where it can be had, how to get it. Something removed meanwhile comes back only by adding it again.",
      };
    case "invalid_input":
      return {
        title: "Invalid input",
        detail: `The request was rejected: ${m}.`,
        action: "Check the values you entered and try again.",
      };
    case "invalid_skill":
      return {
        title: "Not a valid skill",
        detail: `The source is not a valid skill: ${m}. Nothing was imported.`,
        action:
          "A skill is a folder with a SKILL.md file whose YAML frontmatter has a name and a description. Fix the source and import it again.",
      };
    case "unsafe_archive":
      return {
        title: "Unsafe archive",
        detail: `The archive was refused because it is unsafe: ${m}. Nothing was imported.`,
        action:
          "Only import archives you trust. Re-create the archive without absolute paths, '..' entries or links, then import it again.",
      };
    case "too_large":
      return {
        title: "Too large",
        detail: `The source is too large to import: ${m}. Nothing was imported.`,
        action: "Remove large files (build output, data sets) or import only the skill's subfolder via Subpath.",
      };
    case "io":
      return {
        title: "File system error",
        detail: `A file or folder could not be read or written: ${m}.`,
        action: "Check that the path exists and that Skillscope has permission to read it.",
      };
    case "database":
      return {
        title: "Database error",
        detail: `The library database reported an error: ${m}.`,
        action: "Restart Skillscope. If it happens again, check the database file shown in Settings.",
      };
    case "git":
      return {
        title: "Git error",
        detail: `Git could not fetch the source: ${m}. Nothing was imported.`,
        action: "Check the URL or repository path, the ref, and that the repository is reachable.",
      };
    case "conflict":
      return {
        title: "Conflict",
        detail: `The operation conflicts with the current state: ${m}.`,
        action: "Another change happened at the same time. Refresh and try again.",
      };
    case "engine":
      return {
        title: "Container engine unavailable",
        detail: `The container engine (Docker or Podman) could not be reached or failed: ${m}.`,
        action:
          "Start Docker or Podman (for example `sudo systemctl start docker`, or `systemctl --user start podman.socket` for rootless Podman), then try again.",
      };
    case "internal":
      return {
        title: "Unexpected error",
        detail: `Skillscope hit an internal error: ${m}.`,
        action: "This is a bug. Please report it with the message above.",
      };
  }
}
