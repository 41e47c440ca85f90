import { useState } from "react";
import type { TreeNode } from "../../lib/fileTree";
import { formatBytes } from "../../lib/format";

type Props = { nodes: TreeNode[]; selected: string | null; onSelect: (path: string) => void };

/** A collapsible folder tree; folders start expanded. */
export function FileTree({ nodes, selected, onSelect }: Props) {
  return (
    <ul className="tree" role="tree">
      {nodes.map((node) => (
        <TreeItem key={node.path} node={node} selected={selected} onSelect={onSelect} />
      ))}
    </ul>
  );
}

function TreeItem({ node, selected, onSelect }: { node: TreeNode } & Omit<Props, "nodes">) {
  const [open, setOpen] = useState(true);
  if (node.type === "dir") {
    return (
      <li role="treeitem" aria-expanded={open}>
        <button type="button" className="tree-row tree-dir" onClick={() => setOpen(!open)}>
          <span className="tree-caret">{open ? "▾" : "▸"}</span>
          {node.name}/
        </button>
        {open && <FileTree nodes={node.children} selected={selected} onSelect={onSelect} />}
      </li>
    );
  }
  return (
    <li role="treeitem" aria-selected={node.path === selected}>
      <button
        type="button"
        className={node.path === selected ? "tree-row tree-file selected" : "tree-row tree-file"}
        onClick={() => onSelect(node.path)}
        data-path={node.path}
      >
        <span className="tree-name">{node.name}</span>
        <span className="tree-size">
          {node.file.binary ? "binary · " : ""}
          {formatBytes(node.file.size)}
        </span>
      </button>
    </li>
  );
}
