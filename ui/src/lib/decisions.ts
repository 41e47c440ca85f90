// The reviewer's decision form: verdicts, reading the form (with the evidence on offer), the remembered reviewer.
import type { EvidenceLink } from "../bindings/EvidenceLink";
import type { NewDecision } from "../bindings/NewDecision";
import type { Verdict } from "../bindings/Verdict";
import { formReader, type Parsed } from "./forms";

/** Each verdict with its label and the suffix of its radio button's test id. */
export const VERDICTS: readonly [Verdict, string, string][] = [
  ["approve", "Approve", "approve"],
  ["reject", "Reject", "reject"],
  ["needs_work", "Needs work", "needs-work"],
];

export function verdictLabel(verdict: Verdict): string {
  return VERDICTS.find(([v]) => v === verdict)?.[1] ?? verdict;
}

export const evidenceKey = (e: EvidenceLink): string => `${e.kind}:${e.id}`;

/** The decision form's fields, as entered; `evidence` holds the evidenceKey of each ticked option. */
export type DecisionFields = { verdict: Verdict | null; rationale: string; reviewer: string; evidence: string[] };

export const EMPTY_DECISION: Omit<DecisionFields, "reviewer"> = { verdict: null, rationale: "", evidence: [] };

/** The decision the fields describe on version `versionId`, or what is missing. */
export function parseDecision(fields: DecisionFields, versionId: number, options: EvidenceLink[]): Parsed<NewDecision> {
  const r = formReader();
  const rationale = fields.rationale.trim();
  const reviewer = fields.reviewer.trim();
  r.check(fields.verdict !== null, "Choose a verdict.");
  r.check(rationale !== "", "Write the rationale for the decision.");
  r.check(reviewer !== "", "Enter the reviewer's name.");
  return r.done({
    version_id: versionId,
    verdict: fields.verdict ?? "needs_work",
    rationale,
    reviewer,
    evidence: options.filter((o) => fields.evidence.includes(evidenceKey(o))),
  });
}

const REVIEWER_KEY = "skillscope.reviewer";

/** The reviewer name last used on this machine, or "". */
export function rememberedReviewer(storage: Pick<Storage, "getItem"> = localStorage): string {
  return storage.getItem(REVIEWER_KEY) ?? "";
}

export function rememberReviewer(name: string, storage: Pick<Storage, "setItem"> = localStorage): void {
  storage.setItem(REVIEWER_KEY, name);
}
