import type { TrialView } from "../../bindings/TrialView";
import { PHASE_LABELS, phaseText, phaseTiming } from "../../lib/phases";
import { isFinal } from "../../lib/trialStates";
import { usePage } from "../../lib/usePage";
import { TrialStateBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { Pager } from "../shared/Pager";
import { Sha } from "../shared/Sha";
import { Table, type Column } from "../shared/Table";
import { AttemptText } from "./AttemptText";

type Props = {
  trials: TrialView[];
  selectedId: number | null;
  onSelect: (trialId: number) => void;
  onCancel: (trialId: number) => void;
};

const phaseColumns: Column<TrialView>[] = PHASE_LABELS.map(([phase, header]) => ({
  header,
  className: "col-nowrap",
  render: (t) => phaseText(phaseTiming(t.phases, phase), t.state === "running"),
}));

/** Trials shown at a time: an experiment's run can have tens of thousands. */
const PAGE_SIZE = 100;

/** The trials of one run, a page at a time (opening on the selected one's); click one for its log or results. */
export function TrialsTable({ trials, selectedId, onSelect, onCancel }: Props) {
  const { offset, page, setOffset } = usePage(
    trials,
    PAGE_SIZE,
    trials.findIndex((t) => t.id === selectedId),
  );
  const columns: Column<TrialView>[] = [
    { header: "Trial", className: "col-nowrap", render: (t) => <strong>{t.label}</strong> },
    { header: "State", className: "col-nowrap", render: (t) => <TrialStateBadge state={t.state} /> },
    { header: "Attempt", className: "col-nowrap", render: (t) => <AttemptText attempt={t.attempt} /> },
    ...phaseColumns,
    { header: "Message", className: "col-description", render: (t) => <span title={t.message}>{t.message}</span> },
    { header: "Image", className: "col-nowrap", render: (t) => t.image_digest && <Sha sha={t.image_digest} /> },
    {
      header: "",
      className: "col-nowrap",
      render: (t) =>
        !isFinal(t.state) && (
          <button
            type="button"
            className="button-small"
            data-testid="cancel-trial"
            onClick={(e) => {
              e.stopPropagation();
              onCancel(t.id);
            }}
          >
            Cancel
          </button>
        ),
    },
  ];
  return (
    <>
      <Pager offset={offset} shown={page.length} total={trials.length} pageSize={PAGE_SIZE} onOffset={setOffset} />
      <Table
        testId="trials-table"
        columns={columns}
        rows={page}
        rowKey={(t) => t.id}
        onRowClick={(t) => onSelect(t.id)}
        rowAttributes={(t) => ({
          "data-testid": "trial-row",
          "data-trial-id": String(t.id),
          "data-state": t.state,
          className: t.id === selectedId ? "clickable selected" : "clickable",
          "aria-current": t.id === selectedId ? "true" : undefined,
        })}
        empty={<EmptyState title="This run has no trials." />}
      />
    </>
  );
}
