// The run queue's live "queue-event" stream.
import { listen } from "@tauri-apps/api/event";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { AppError } from "../bindings/AppError";
import type { QueueEvent } from "../bindings/QueueEvent";
import { QUEUE_EVENT } from "../bindings/commands";
import { hasBackend } from "./invoke";
import { toAppError } from "./errors";

/**
 * Calls `handler` with every queue event while the calling component is mounted
 * (subscribing once; the latest `handler` is the one called). Returns why
 * subscribing failed, if it did.
 */
export function useQueueEvents(handler: (event: QueueEvent) => void): AppError | null {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const [error, setError] = useState<AppError | null>(null);
  useEffect(() => {
    if (!hasBackend()) return;
    let unlisten: (() => void) | null = null;
    let unmounted = false;
    listen<QueueEvent>(QUEUE_EVENT, (e) => latest.current(e.payload)).then(
      (stop) => (unmounted ? stop() : (unlisten = stop)),
      (raw: unknown) => !unmounted && setError(toAppError(raw)),
    );
    return () => {
      unmounted = true;
      unlisten?.();
    };
  }, []);
  return error;
}
