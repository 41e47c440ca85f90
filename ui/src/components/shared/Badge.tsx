import type { ReactNode } from "react";
import type { ChangeKind } from "../../bindings/ChangeKind";
import type { Severity as ScanSeverity } from "../../bindings/Severity";
import type { StatsClass } from "../../bindings/StatsClass";
import type { TrialState } from "../../bindings/TrialState";
import type { ValidationSeverity } from "../../bindings/ValidationSeverity";
import type { ValidationStatus } from "../../bindings/ValidationStatus";
import type { Verdict } from "../../bindings/Verdict";
import { verdictLabel } from "../../lib/decisions";
import { classDescription, classLabel } from "../../lib/experiments";
import { plural } from "../../lib/format";
import { formatP } from "../../lib/statsFormat";
import type { ScoreBand } from "../../lib/scores";
import { stateColour, stateDescription, stateLabel } from "../../lib/trialStates";

export type Tone = "neutral" | "accent" | "success" | "warning" | "danger";

type BadgeProps = { tone?: Tone; title?: string; testId?: string; children: ReactNode };

export function Badge({ tone = "neutral", title, testId, children }: BadgeProps) {
  return (
    <span className={`badge badge-${tone}`} title={title} data-testid={testId}>
      {children}
    </span>
  );
}

const STATUS: Record<ValidationStatus, { tone: Tone; label: string }> = {
  valid: { tone: "success", label: "Valid" },
  warnings: { tone: "warning", label: "Warnings" },
  errors: { tone: "danger", label: "Errors" },
};

export function StatusBadge({ status, findingCount }: { status: ValidationStatus; findingCount: number }) {
  const { tone, label } = STATUS[status];
  return (
    <Badge tone={tone} title={plural(findingCount, "finding")}>
      {label}
    </Badge>
  );
}

const SEVERITY: Record<ValidationSeverity, Tone> = { error: "danger", warning: "warning", info: "accent" };

export function SeverityBadge({ severity }: { severity: ValidationSeverity }) {
  return <Badge tone={SEVERITY[severity]}>{severity}</Badge>;
}

const SCAN_SEVERITY: Record<ScanSeverity, Tone> = {
  critical: "danger",
  high: "danger",
  medium: "warning",
  low: "accent",
  info: "neutral",
};

export function ScanSeverityBadge({ severity }: { severity: ScanSeverity }) {
  return <Badge tone={SCAN_SEVERITY[severity]}>{severity}</Badge>;
}

/** The tone of a score's colour band. */
export const BAND_TONE: Record<ScoreBand, Tone> = { good: "success", fair: "warning", poor: "danger" };

const CHANGE: Record<ChangeKind, Tone> = {
  added: "success",
  removed: "danger",
  modified: "warning",
  unchanged: "neutral",
};

export function ChangeBadge({ change }: { change: ChangeKind }) {
  return <Badge tone={CHANGE[change]}>{change}</Badge>;
}

export function TrialStateBadge({ state }: { state: TrialState }) {
  return (
    <span
      className={`badge state-badge state-${stateColour(state)}`}
      title={stateDescription(state)}
      data-testid="trial-state"
    >
      {stateLabel(state)}
    </span>
  );
}

const CLASS: Record<StatsClass, Tone> = {
  golden: "success",
  harmful: "danger",
  ineffective: "neutral",
  undecided: "warning",
  too_few_tasks: "neutral",
};

/** A skill's direction class, explained on hover (with the smallest reachable p when given). */
export function ClassBadge({ value, minP }: { value: StatsClass; minP?: number }) {
  const reach = minP === undefined ? "" : ` The smallest reachable p is ${formatP(minP)}.`;
  return (
    <Badge tone={CLASS[value]} title={classDescription(value) + reach} testId="skill-class">
      {classLabel(value)}
    </Badge>
  );
}

const VERDICT: Record<Verdict, Tone> = { approve: "success", reject: "danger", needs_work: "warning" };

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <Badge tone={VERDICT[verdict]}>{verdictLabel(verdict)}</Badge>;
}
