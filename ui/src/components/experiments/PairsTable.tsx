import type { ArmView } from "../../bindings/ArmView";
import type { PairView } from "../../bindings/PairView";
import { pairDelta } from "../../lib/experiments";
import { runsHref } from "../../lib/route";
import { formatDelta, formatPoints } from "../../lib/statsFormat";
import { usePage } from "../../lib/usePage";
import { TrialStateBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { Pager } from "../shared/Pager";
import { Table, type Column } from "../shared/Table";

/** An arm's score in points, or its state until it has one. */
export function ArmScore({ arm }: { arm: ArmView }) {
  return arm.score === null ? <TrialStateBadge state={arm.state} /> : <>{formatPoints(100 * arm.score)}</>;
}

/** An arm's score, linking to its trial on the Runs page. */
function Arm({ arm, runId, name }: { arm: ArmView; runId: number; name: string }) {
  return (
    <a
      href={runsHref(runId, arm.trial_id)}
      data-testid={`pair-${name}`}
      title={`Open the ${name} trial on the Runs page`}
    >
      <ArmScore arm={arm} />
    </a>
  );
}

/** What the pair's arms ran with, as recorded when they ran; both when they differ. */
function RanWith({ pair }: { pair: PairView }) {
  if (pair.ran_with.length === 0) {
    return <span className="muted">not recorded</span>;
  }
  return (
    <span data-testid="pair-ran-with" title="Model, harness and version, user; the pair's view has the rest">
      {pair.ran_with.join(" / ")}
    </span>
  );
}

function columns(runId: number): Column<PairView>[] {
  return [
    { header: "Task", className: "col-nowrap", render: (p) => p.task },
    { header: "Skill", className: "col-nowrap", render: (p) => p.skill },
    { header: "Configuration", className: "col-nowrap", render: (p) => p.config },
    { header: "Ran with", className: "col-nowrap", render: (p) => <RanWith pair={p} /> },
    { header: "Condition", className: "col-nowrap", render: (p) => p.condition },
    { header: "Repeat", className: "col-num", render: (p) => p.repeat },
    {
      header: "Without",
      className: "col-nowrap col-num",
      render: (p) => <Arm arm={p.without} runId={runId} name="without" />,
    },
    { header: "With", className: "col-nowrap col-num", render: (p) => <Arm arm={p.with} runId={runId} name="with" /> },
    { header: "Delta", className: "col-nowrap col-num", render: (p) => formatDelta(pairDelta(p)) },
    {
      header: "Re-runs",
      className: "col-num",
      render: (p) => <span title="Infrastructure re-runs: without + with">{p.without.reruns + p.with.reruns}</span>,
    },
    {
      header: "Excluded because",
      className: "col-value",
      render: (p) =>
        p.excluded.length > 0 && (
          <ul className="reasons">
            {p.excluded.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ),
    },
  ];
}

/** Pairs shown at a time: an experiment can have tens of thousands. */
const PAGE_SIZE = 100;

/** Every pair of the experiment (scores in points), a page at a time; each arm links to its trial. */
export function PairsTable({ pairs, runId }: { pairs: PairView[]; runId: number }) {
  const { offset, page, setOffset } = usePage(pairs, PAGE_SIZE);
  return (
    <section className="panel">
      <div className="panel-header">
        <h2>Pairs</h2>
        <Pager offset={offset} shown={page.length} total={pairs.length} pageSize={PAGE_SIZE} onOffset={setOffset} />
      </div>
      <div className="table-scroll">
        <Table
          testId="pairs-table"
          columns={columns(runId)}
          rows={page}
          rowKey={(p) => p.id}
          rowAttributes={(p) => ({
            "data-testid": "pair-row",
            "data-pair-id": String(p.id),
            "data-excluded": String(p.excluded.length > 0),
          })}
          empty={<EmptyState title="This experiment has no pairs." />}
        />
      </div>
    </section>
  );
}
