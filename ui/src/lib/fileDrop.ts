// Files dropped onto the window (Tauri gives their paths): which one a page takes.

/** The first dropped path a page accepts: any path when `extensions` is empty, else one ending in one of them. */
export function acceptedDrop(paths: readonly string[], extensions: readonly string[] = []): string | null {
  const ok = (p: string) => extensions.length === 0 || extensions.some((e) => p.toLowerCase().endsWith(`.${e}`));
  return paths.find(ok) ?? null;
}
