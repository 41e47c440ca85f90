import { open } from "@tauri-apps/plugin-dialog";
import { hasBackend } from "../../api/invoke";

type Props = {
  /** What may be picked: files, folders, or both (two buttons). */
  pick: "file" | "folder" | "both";
  /** File kinds offered by the file picker, e.g. `{ name: "Archives", extensions: ["zip", "skill"] }`. */
  filters?: { name: string; extensions: string[] }[];
  onPick: (path: string) => void;
  disabled?: boolean;
  testId: string;
};

/** "Choose file…" / "Choose folder…" beside a path field: the system's picker fills the field. */
export function PathPicker({ pick, filters, onPick, disabled, testId }: Props) {
  if (!hasBackend()) return null;
  const choose = async (directory: boolean) => {
    const picked = await open({ directory, multiple: false, filters: directory ? undefined : filters });
    if (typeof picked === "string") onPick(picked);
  };
  return (
    <span className="path-picker">
      {pick !== "folder" && (
        <button type="button" disabled={disabled} data-testid={`${testId}-file`} onClick={() => void choose(false)}>
          Choose file…
        </button>
      )}
      {pick !== "file" && (
        <button type="button" disabled={disabled} data-testid={`${testId}-folder`} onClick={() => void choose(true)}>
          Choose folder…
        </button>
      )}
    </span>
  );
}
