import { shortSha } from "../../lib/format";

/** A short SHA-256 with the full value on hover. */
export function Sha({ sha }: { sha: string }) {
  return (
    <code className="sha" title={sha}>
      {shortSha(sha)}
    </code>
  );
}
