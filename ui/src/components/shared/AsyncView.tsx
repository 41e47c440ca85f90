import type { ReactNode } from "react";
import type { AsyncState } from "../../lib/useAsync";
import { ErrorPanel } from "./ErrorPanel";
import { Loading } from "./Loading";

type Props<T> = { state: AsyncState<T>; what: string; onRetry?: () => void; children: (data: T) => ReactNode };

/** Renders loading and error states of an AsyncState, and `children` once it is ready. */
export function AsyncView<T>({ state, what, onRetry, children }: Props<T>) {
  if (state.status === "loading") return <Loading what={what} />;
  if (state.status === "error") return <ErrorPanel error={state.error} onRetry={onRetry} />;
  return <>{children(state.data)}</>;
}
