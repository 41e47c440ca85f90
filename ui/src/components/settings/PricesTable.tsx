import { useState } from "react";
import { shownOf } from "../../lib/format";
import { matchingKeys, newPriceRow, type PriceFields } from "../../lib/settingsForm";
import { usePage } from "../../lib/usePage";
import { EmptyState } from "../shared/EmptyState";
import { Pager } from "../shared/Pager";
import { Table, type Column } from "../shared/Table";

/** Rows shown at a time: a LiteLLM import brings about two thousand. */
const PAGE_SIZE = 50;

type PriceField = "input" | "cached" | "output";

const PRICE_COLUMNS: [PriceField, string, string][] = [
  ["input", "Input", "price-input"],
  ["cached", "Cached input", "price-cached"],
  ["output", "Output", "price-output"],
];

type Props = { rows: PriceFields[]; onChange: (rows: PriceFields[]) => void; disabled: boolean };

/** The editable price table: a page of the rows the filter matches; edits apply to the full list. */
export function PricesTable({ rows, onChange, disabled }: Props) {
  const [filter, setFilter] = useState<{ text: string; keys: Set<number> | null }>({ text: "", keys: null });
  const { keys } = filter;
  const shown = keys === null ? rows : rows.filter((r) => keys.has(r.key));
  const { offset, page, setOffset } = usePage(shown, PAGE_SIZE);

  const edit = (key: number, patch: Partial<PriceFields>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = () => {
    const row = newPriceRow(rows);
    // First in the list and kept by the filter, so the new row is in view to be filled in.
    onChange([row, ...rows]);
    setFilter({ ...filter, keys: keys && new Set(keys).add(row.key) });
    setOffset(0);
  };

  const priceInput = (field: PriceField, label: string, testId: string): Column<PriceFields> => ({
    header: label,
    className: "col-price",
    render: (r) => (
      <input
        type="number"
        min={0}
        step="any"
        aria-label={`${r.model || "New model"}: ${label.toLowerCase()} price`}
        data-testid={testId}
        placeholder={field === "cached" ? "as input" : undefined}
        value={r[field]}
        disabled={disabled}
        onChange={(e) => edit(r.key, { [field]: e.target.value })}
      />
    ),
  });
  const columns: Column<PriceFields>[] = [
    {
      header: "Model",
      className: "col-model",
      render: (r) => (
        <input
          className="mono"
          aria-label="Model name"
          data-testid="price-model"
          value={r.model}
          disabled={disabled}
          spellCheck={false}
          onChange={(e) => edit(r.key, { model: e.target.value })}
        />
      ),
    },
    ...PRICE_COLUMNS.map(([field, label, testId]) => priceInput(field, label, testId)),
    {
      header: "",
      className: "col-nowrap",
      render: (r) => (
        <button
          type="button"
          className="button-small"
          data-testid="price-remove"
          disabled={disabled}
          onClick={() => onChange(rows.filter((x) => x.key !== r.key))}
        >
          Remove
        </button>
      ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <input
          type="search"
          className="search"
          data-testid="price-filter"
          placeholder="Filter by model name…"
          value={filter.text}
          onChange={(e) => {
            setFilter({ text: e.target.value, keys: matchingKeys(rows, e.target.value) });
            setOffset(0);
          }}
          // Enter here narrows the list; it must not save the form.
          onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
        />
        <span className="muted">{shownOf(shown.length, rows.length, "model")}</span>
        <button type="button" data-testid="price-add" disabled={disabled} onClick={add}>
          Add a model
        </button>
        <Pager offset={offset} shown={page.length} total={shown.length} pageSize={PAGE_SIZE} onOffset={setOffset} />
      </div>
      <Table
        testId="prices-table"
        columns={columns}
        rows={page}
        rowKey={(r) => r.key}
        rowAttributes={(r) => ({ "data-testid": "price-row", "data-model": r.model })}
        empty={
          <EmptyState title={keys === null ? "No model prices." : "No model name holds this."}>
            {keys === null && "Add a model, or import LiteLLM's prices below."}
          </EmptyState>
        }
      />
    </>
  );
}
