import { getCurrentWebview } from "@tauri-apps/api/webview";
import { useEffect, useRef, useState } from "react";
import { hasBackend } from "../api/invoke";
import { acceptedDrop } from "./fileDrop";

/**
 * Calls `onDrop` with the first accepted path of files dropped onto the window while the page is
 * shown; returns whether files are being dragged over it (for a visual cue).
 */
export function useFileDrop(onDrop: (path: string) => void, extensions: readonly string[] = []): boolean {
  const [over, setOver] = useState(false);
  const latest = useRef({ onDrop, extensions });
  useEffect(() => {
    latest.current = { onDrop, extensions };
  });
  useEffect(() => {
    if (!hasBackend()) return;
    let unlisten: (() => void) | null = null;
    let live = true;
    void getCurrentWebview()
      .onDragDropEvent(({ payload }) => {
        if (payload.type === "enter" || payload.type === "over") setOver(true);
        else if (payload.type === "leave") setOver(false);
        else {
          setOver(false);
          const path = acceptedDrop(payload.paths, latest.current.extensions);
          if (path !== null) latest.current.onDrop(path);
        }
      })
      .then((stop) => (live ? (unlisten = stop) : stop()));
    return () => {
      live = false;
      unlisten?.();
    };
  }, []);
  return over;
}
