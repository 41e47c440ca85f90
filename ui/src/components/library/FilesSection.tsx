import { useMemo, useState } from "react";
import type { FileEntry } from "../../bindings/FileEntry";
import { buildFileTree } from "../../lib/fileTree";
import { EmptyState } from "../shared/EmptyState";
import { FileTree } from "./FileTree";
import { FileViewer } from "./FileViewer";

type Props = { versionId: number; files: FileEntry[]; initialPath?: string | null };

/** The version's file tree and one file; `initialPath` (else SKILL.md, else the first file) is shown first. */
export function FilesSection({ versionId, files, initialPath = null }: Props) {
  const tree = useMemo(() => buildFileTree(files), [files]);
  const [selected, setSelected] = useState<string | null>(() => {
    const first = [initialPath, "SKILL.md"].find((p) => p !== null && files.some((f) => f.path === p));
    return first ?? files[0]?.path ?? null;
  });
  if (files.length === 0) return <EmptyState title="This version has no files." />;
  return (
    <div className="files-section">
      <div className="files-tree">
        <FileTree nodes={tree} selected={selected} onSelect={setSelected} />
      </div>
      <div className="files-viewer">
        {selected ? (
          <FileViewer versionId={versionId} path={selected} />
        ) : (
          <EmptyState title="Select a file to view it." />
        )}
      </div>
    </div>
  );
}
