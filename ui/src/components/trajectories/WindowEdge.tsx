import { plural } from "../../lib/format";

/** Where a windowed list has more steps than are loaded: how many, and that scrolling loads them. */
export function WindowEdge({ count, what }: { count: number; what: "earlier" | "later" }) {
  if (count <= 0) return null;
  return (
    <p className="muted window-edge" data-testid={`window-${what}`} data-count={count}>
      {plural(count, `${what} step`)}: they load as you scroll {what === "earlier" ? "up" : "down"}.
    </p>
  );
}
