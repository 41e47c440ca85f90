import { useSyncExternalStore } from "react";

export type ColourScheme = "light" | "dark";

// styles.css follows the system with a media query; colours computed in script follow this.
const dark = () => window.matchMedia("(prefers-color-scheme: dark)");

function subscribe(onChange: () => void): () => void {
  const query = dark();
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** The system's colour scheme, updated when it changes. */
export function useColourScheme(): ColourScheme {
  return useSyncExternalStore(subscribe, () => (dark().matches ? "dark" : "light"));
}
