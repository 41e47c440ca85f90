import type { Chart } from "../../bindings/Chart";
import type { PairView } from "../../bindings/PairView";
import { pairDelta } from "../../lib/experiments";
import { pairHref } from "../../lib/route";
import { formatDelta } from "../../lib/statsFormat";
import { EmptyState } from "../shared/EmptyState";
import { Table, type Column } from "../shared/Table";
import { ChartFigure } from "./ChartFigure";
import { ArmScore } from "./PairsTable";

type Props = {
  experimentId: number;
  skill: string;
  config: string;
  pairs: PairView[];
  chart: Chart | undefined;
  onClose: () => void;
};

function columns(experimentId: number): Column<PairView>[] {
  return [
    {
      header: "Task",
      className: "col-nowrap",
      render: (p) => (
        <a
          href={pairHref(experimentId, p.id)}
          data-testid="open-pair"
          data-task={p.task}
          title="Compare the two runs side by side"
        >
          {p.task}
        </a>
      ),
    },
    { header: "Repeat", className: "col-num", render: (p) => p.repeat },
    { header: "Without", className: "col-nowrap col-num", render: (p) => <ArmScore arm={p.without} /> },
    { header: "With", className: "col-nowrap col-num", render: (p) => <ArmScore arm={p.with} /> },
    { header: "Delta", className: "col-nowrap col-num", render: (p) => formatDelta(pairDelta(p)) },
    {
      header: "Scored",
      className: "col-value",
      render: (p) => (p.excluded.length === 0 ? "yes" : <span className="muted">no: {p.excluded.join("; ")}</span>),
    },
  ];
}

/** The requirement-level deltas of one skill × configuration: its pairs (each opening the pair view) and chart. */
export function HeatCellDetail({ experimentId, skill, config, pairs, chart, onClose }: Props) {
  return (
    <section className="cell-detail" data-testid="cell-detail" data-skill={skill} data-config={config}>
      <header className="panel-header">
        <h3>
          {skill} × {config}
        </h3>
        <button type="button" className="button-small" data-testid="cell-detail-close" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="table-scroll">
        <Table
          testId="cell-pairs"
          columns={columns(experimentId)}
          rows={pairs}
          rowKey={(p) => p.id}
          rowAttributes={(p) => ({ "data-testid": "cell-pair", "data-pair-id": String(p.id), "data-task": p.task })}
          empty={<EmptyState title="No pair ran this skill with this configuration." />}
        />
      </div>
      {chart && <ChartFigure chart={chart} />}
    </section>
  );
}
