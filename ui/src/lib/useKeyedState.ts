import { useState, type Dispatch, type SetStateAction } from "react";

/**
 * State that goes back to `initial` whenever `key` changes. The reset happens while rendering (as
 * React recommends over an effect), so nothing is ever shown with the value left from the old key.
 */
export function useKeyedState<T>(initial: T, key: unknown): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState(initial);
  const [seenKey, setSeenKey] = useState(key);
  if (!Object.is(seenKey, key)) {
    setSeenKey(key);
    setValue(initial);
  }
  return [value, setValue];
}
