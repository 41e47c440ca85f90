import { useState } from "react";
import type { FileChange } from "../../bindings/FileChange";
import type { VersionDiff } from "../../bindings/VersionDiff";
import { plural } from "../../lib/format";
import { parseUnifiedDiff } from "../../lib/unifiedDiff";
import { ChangeBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";

/** A version-to-version diff: a summary list of changed files, then each file's unified diff. */
export function DiffView({ diff }: { diff: VersionDiff }) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const changed = diff.files.filter((f) => f.change !== "unchanged");
  const unchangedCount = diff.files.length - changed.length;
  const shown = showUnchanged ? diff.files : changed;

  return (
    <div className="diff" data-testid="diff-view">
      <div className="diff-summary">
        <span>
          Version {diff.from_version} → version {diff.to_version}: {plural(changed.length, "changed file")}
          {unchangedCount > 0 && `, ${unchangedCount} unchanged`}
        </span>
        {unchangedCount > 0 && (
          <label className="checkbox">
            <input type="checkbox" checked={showUnchanged} onChange={(e) => setShowUnchanged(e.target.checked)} />
            Show unchanged files
          </label>
        )}
      </div>
      {shown.length === 0 ? (
        <EmptyState title="These two versions have identical files." />
      ) : (
        <>
          <ul className="diff-files">
            {shown.map((f) => (
              <li key={f.path}>
                <ChangeBadge change={f.change} />
                <button type="button" className="link" onClick={() => scrollToFile(f.path)}>
                  {f.path}
                </button>
              </li>
            ))}
          </ul>
          {shown.map((f) => (
            <FileDiff key={f.path} file={f} />
          ))}
        </>
      )}
    </div>
  );
}

// A button rather than a "#id" link: the hash belongs to the router.
function scrollToFile(path: string) {
  document.getElementById(`diff-${path}`)?.scrollIntoView({ block: "start" });
}

function FileDiff({ file }: { file: FileChange }) {
  return (
    <section className="diff-file" id={`diff-${file.path}`}>
      <header className="diff-file-header">
        <ChangeBadge change={file.change} />
        <code>{file.path}</code>
      </header>
      <FileDiffBody file={file} />
    </section>
  );
}

function FileDiffBody({ file }: { file: FileChange }) {
  if (file.binary) return <p className="muted diff-note">Binary file {file.change} — no text diff.</p>;
  if (file.change === "unchanged") return <p className="muted diff-note">No changes.</p>;
  if (!file.unified_diff) return <p className="muted diff-note">No text diff available.</p>;
  return <DiffLines diff={file.unified_diff} />;
}

/** A unified diff as numbered, coloured lines. */
export function DiffLines({ diff }: { diff: string }) {
  return (
    <table className="diff-lines">
      <tbody>
        {parseUnifiedDiff(diff).map((line, i) => (
          <tr key={i} className={`diff-${line.kind}`}>
            <td className="diff-num">{line.oldLine ?? ""}</td>
            <td className="diff-num">{line.newLine ?? ""}</td>
            <td className="diff-text">{line.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
