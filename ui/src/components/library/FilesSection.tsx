import { useMemo, useState } from "react";
import type { FileEntry } from "../../bindings/FileEntry";
import { buildFileTree } from "../../lib/fileTree";
import { EmptyState } from "../shared/EmptyState";
import { FileTree } from "./FileTree";
import { FileViewer } from "./FileViewer";

/** File tree of a version beside a viewer for the selected file (SKILL.md first). */
export function FilesSection({ versionId, files }: { versionId: number; files: FileEntry[] }) {
  const tree = useMemo(() => buildFileTree(files), [files]);
  const [selected, setSelected] = useState<string | null>(() =>
    files.some((f) => f.path === "SKILL.md") ? "SKILL.md" : (files[0]?.path ?? null),
  );
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
