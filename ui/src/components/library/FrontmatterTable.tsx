import type { Frontmatter } from "../../bindings/Frontmatter";
import { frontmatterRows, type FrontmatterRow } from "../../lib/frontmatterRows";
import { Badge } from "../shared/Badge";
import { Table, type Column } from "../shared/Table";

const columns: Column<FrontmatterRow>[] = [
  { header: "Field", className: "col-key", render: (r) => <code>{r.key}</code> },
  {
    header: "Value",
    className: "col-value",
    render: (r) => (r.missing ? <span className="muted">not set</span> : r.value),
  },
  {
    header: "Kind",
    className: "col-kind",
    render: (r) =>
      r.origin === "unknown" ? (
        <Badge tone="warning" title="Not a field of the skill specification">
          unknown field
        </Badge>
      ) : (
        <span className="muted">{r.origin}</span>
      ),
  },
];

export function FrontmatterTable({ frontmatter }: { frontmatter: Frontmatter }) {
  return <Table columns={columns} rows={frontmatterRows(frontmatter)} rowKey={(r) => r.key} />;
}
