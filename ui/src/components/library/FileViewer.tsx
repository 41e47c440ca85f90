import { readFile } from "../../bindings/commands";
import { formatBytes } from "../../lib/format";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { CodeView } from "../shared/CodeView";
import { EmptyState } from "../shared/EmptyState";

/** Loads one file of a version and shows it as numbered text, or says it is binary. */
export function FileViewer({ versionId, path }: { versionId: number; path: string }) {
  const [state, reload] = useAsync(() => readFile(versionId, path), [versionId, path]);
  return (
    <div className="file-viewer">
      <div className="file-viewer-header">
        <code>{path}</code>
        {state.status === "ready" && <span className="muted">{formatBytes(state.data.size)}</span>}
      </div>
      <AsyncView state={state} what={path} onRetry={reload}>
        {(file) =>
          file.binary || file.text === null ? (
            <EmptyState title={`Binary file, ${file.size} bytes — not shown`} />
          ) : file.text === "" ? (
            <EmptyState title="This file is empty." />
          ) : (
            <CodeView text={file.text} />
          )
        }
      </AsyncView>
    </div>
  );
}
