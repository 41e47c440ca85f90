import type { ReactNode } from "react";

/** The skill × configuration table of a heatmap: a row per skill (`children`), a column per configuration. */
export function HeatTable({
  configs,
  caption,
  testId,
  children,
}: {
  configs: string[];
  caption?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className="heatmap-table" data-testid={testId}>
        {caption && <caption className="muted">{caption}</caption>}
        <thead>
          <tr>
            <th>Skill</th>
            {configs.map((config) => (
              <th key={config}>{config}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
